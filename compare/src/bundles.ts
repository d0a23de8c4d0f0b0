import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import * as temporal from '@vendor-review/temporal';
import { runtimeVersions } from './versions.ts';

/**
 * What the harness builds ahead of time, once, and caches under compare/.cache (or beside a worker
 * entry) keyed by a hash of the sources they come from: a new build is needed only when code changed.
 */
const CACHE_DIR = fileURLToPath(new URL('../.cache/', import.meta.url));
const LOCKFILE = fileURLToPath(new URL('../../pnpm-lock.yaml', import.meta.url));

export interface Built {
  path: string;
  ms: number;
  cached: boolean;
}

function sourcesHash(roots: string[]): string {
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
  hash.update(readFileSync(LOCKFILE));
  hash.update(runtimeVersions().temporalSdk ?? '');
  return hash.digest('hex').slice(0, 16);
}

const packageDir = (specifier: string) => path.dirname(fileURLToPath(import.meta.resolve(specifier)));

/** Keep only the newest file of one kind in a cache folder. */
function replaceCached(dir: string, prefix: string, from: string, to: string): void {
  mkdirSync(dir, { recursive: true });
  for (const old of readdirSync(dir)) if (old.startsWith(prefix)) rmSync(path.join(dir, old), { force: true });
  copyFileSync(from, to);
}

/** The Temporal workflow bundle: webpack takes 10-20 s on two cores; workers load it prebuilt. */
export async function workflowBundle(scratch: string, log: (l: string) => void): Promise<Built> {
  const key = sourcesHash([packageDir('@vendor-review/temporal'), packageDir('@vendor-review/domain/pure')]);
  const cached = path.join(CACHE_DIR, `workflow-bundle-${key}.js`);
  if (existsSync(cached)) return { path: cached, ms: 0, cached: true };
  const built = await temporal.buildWorkflowBundle(path.join(scratch, 'workflow-bundle.js'));
  try {
    replaceCached(CACHE_DIR, 'workflow-bundle-', built.path, cached);
    return { path: cached, ms: built.ms, cached: false };
  } catch (err) {
    log(
      `compare: could not cache the workflow bundle (${err instanceof Error ? err.message : String(err)}); using it uncached`,
    );
    return { ...built, cached: false };
  }
}

/**
 * A worker entry compiled with its own code into one ES module. Under tsx a worker spends ~3 s of
 * CPU resolving and transforming a few thousand files before it can take work; bundled it starts in
 * a fraction of that, and the matrix starts ~100 workers on two cores. The file lands in a .cache
 * folder beside the entry, so packages left external (native or heavy ones: `external`) still
 * resolve from that package's node_modules.
 */
export async function workerBundle(entry: string, external: string[]): Promise<Built> {
  const { build } = await import('esbuild');
  const dir = path.join(path.dirname(entry), '..', '.cache');
  const name = path.basename(entry, '.ts');
  const key = sourcesHash([path.dirname(entry), packageDir('@vendor-review/domain')]);
  const out = path.join(dir, `${name}-bundle-${key}.mjs`);
  if (existsSync(out)) return { path: out, ms: 0, cached: true };
  const started = Date.now();
  const tmp = path.join(dir, `tmp-${process.pid}-${name}.mjs`);
  await build({
    entryPoints: [entry],
    outfile: tmp,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external,
    logLevel: 'error',
    // CommonJS dependencies inside an ES module bundle still call require().
    banner: {
      js: "import { createRequire as __vrCreateRequire } from 'node:module'; const require = __vrCreateRequire(import.meta.url);",
    },
  });
  replaceCached(dir, `${name}-bundle-`, tmp, out);
  rmSync(tmp, { force: true });
  return { path: out, ms: Date.now() - started, cached: false };
}
