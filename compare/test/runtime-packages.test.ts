import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runtimePackages as findRuntimePackages } from './workspace-packages.ts';

/**
 * A runtime package reads like a sample: src/ is the application a team would deploy, harness/ the
 * plugin that measures it. The harness imports the application, never the reverse, so the
 * application deploys without the harness. Every workspace package that exports a runtime module
 * (`./runtime`) is held to it, whichever runtime it is.
 */
const runtimePackages = findRuntimePackages();

const SPECIFIER = /(?:\bfrom|\bimport)\s*\(?\s*['"]([^'"]+)['"]/g;

describe('each runtime package', () => {
  it('is found: the workspace has runtime packages to hold to the shape', () => {
    expect(runtimePackages.length).toBeGreaterThan(1);
  });

  it.each(runtimePackages.map((p) => [path.relative(ROOT, p.dir), p] as const))(
    '%s: its runtime module is in harness/, and nothing under src/ reaches harness/',
    (_, { dir, pkg }) => {
      const harness = path.join(dir, 'harness');
      const inHarness = (file: string) => !path.relative(harness, file).startsWith('..');
      const exports = pkg.exports as Record<string, string>;
      expect(inHarness(path.resolve(dir, exports['./runtime']!))).toBe(true);
      const src = path.join(dir, 'src');
      const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
      const specifiers = files.flatMap((f) =>
        [...readFileSync(path.join(src, f), 'utf8').matchAll(SPECIFIER)].map((m) => ({ file: f, spec: m[1]! })),
      );
      const name = pkg.name as string;
      const intoHarness = specifiers.filter(({ file, spec }) =>
        spec.startsWith('.')
          ? inHarness(path.resolve(src, path.dirname(file), spec))
          : (spec === name || spec.startsWith(`${name}/`)) &&
            inHarness(path.resolve(dir, exports[`.${spec.slice(name.length)}`] ?? '')),
      );
      expect(specifiers.length).toBeGreaterThan(files.length); // the pattern finds imports at all
      expect(intoHarness).toEqual([]);
    },
  );
});
