import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * src/ is the application and harness/ the plugin that measures it: the harness imports the
 * application, never the reverse, so the application deploys without the harness.
 */
const PACKAGE = fileURLToPath(new URL('../', import.meta.url));
const SRC = path.join(PACKAGE, 'src');
const HARNESS = path.join(PACKAGE, 'harness');
const { name, exports } = JSON.parse(readFileSync(path.join(PACKAGE, 'package.json'), 'utf8')) as {
  name: string;
  exports: Record<string, string>;
};
const inHarness = (file: string) => !path.relative(HARNESS, file).startsWith('..');
/** Where an import of this package by its own name leads (`@vendor-review/x/runtime` → harness/module.ts). */
const exported = (spec: string) => exports[`.${spec.slice(name.length)}`];
const SPECIFIER = /(?:\bfrom|\bimport)\s*\(?\s*['"]([^'"]+)['"]/g;

describe('what src/ imports', () => {
  it('nothing under src/ reaches harness/, by path or through the package’s own exports', () => {
    const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const specifiers = files.flatMap((f) =>
      [...readFileSync(path.join(SRC, f), 'utf8').matchAll(SPECIFIER)].map((m) => ({ file: f, spec: m[1]! })),
    );
    const intoHarness = specifiers.filter(({ file, spec }) =>
      spec.startsWith('.')
        ? inHarness(path.resolve(SRC, path.dirname(file), spec))
        : (spec === name || spec.startsWith(`${name}/`)) && inHarness(path.resolve(PACKAGE, exported(spec) ?? '')),
    );
    expect(specifiers.length).toBeGreaterThan(files.length); // the pattern finds imports at all
    expect(intoHarness).toEqual([]);
  });
});
