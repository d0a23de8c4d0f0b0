import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, workspacePackages } from './workspace-packages.ts';

/**
 * Each workspace package depends on what it imports, and only on that: a dependency nothing imports
 * is installed and audited for nothing, and an import its package.json does not name works only
 * while some other package happens to bring it along. "Imports" are the bare specifiers of every
 * source, test and config file of the package (static, type-only, side-effect and dynamic imports,
 * `export … from`, `require` and `require.resolve`), `@vendor-review/*` included; Node's built-ins
 * are not dependencies, and an `@types/x` package counts as used where `x` is imported.
 */

/** What is not a package's own source: installed, generated, kept by a person's runs (as .gitignore has it). */
const NOT_OURS = new Set(['node_modules', '.git', '.cache', '.lab', '.tmp', 'report']);
const SOURCE = /\.(?:[cm]?ts|[cm]?js)$/;
const SPECIFIERS = [
  // import … from, import type … from, export … from (the clause may span lines, never hold a string)
  /^\s*(?:import|export)\b[^;'"`]*?\bfrom\s*['"]([^'"]+)['"]/gm,
  // a side-effect import
  /^\s*import\s*['"]([^'"]+)['"]/gm,
  // dynamic import, require, require.resolve, createRequire(…).resolve
  /(?:\bimport|\brequire(?:\.resolve)?|\)\.resolve)\(\s*['"]([^'"]+)['"]/g,
];

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
export const packageOf = (spec: string) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

/** The packages a source text imports: bare specifiers only, Node's built-ins left out. */
export function importedPackages(text: string): string[] {
  const specs = SPECIFIERS.flatMap((re) => [...text.matchAll(re)].map((m) => m[1]!));
  const bare = specs.filter((s) => !s.startsWith('.') && !s.startsWith('/') && !s.startsWith('node:'));
  return [...new Set(bare.map(packageOf).filter((p) => !builtinModules.includes(p)))];
}

function sourceFiles(dir: string, top = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const file = path.join(dir, d.name);
    if (d.isDirectory())
      return NOT_OURS.has(d.name) || existsSync(path.join(file, 'package.json')) ? [] : sourceFiles(file, top);
    return SOURCE.test(d.name) ? [file] : [];
  });
}

/** `@types/pg` is for `pg`, `@types/scope__name` for `@scope/name`, `@types/node` for Node's built-ins. */
const typesFor = (dep: string) => {
  const name = dep.slice('@types/'.length);
  return name.includes('__') ? `@${name.replace('__', '/')}` : name;
};

export interface Mismatch {
  /** Imported by these files, and not in the package's dependencies, devDependencies or peerDependencies. */
  undeclared: Record<string, string>;
  /**
   * Declared, and imported by no file of the package. A peer dependency is the user's to install and
   * may be loaded from the user's own node_modules, not imported by name (the crash test's SDKs):
   * it, and the dev dependency that installs it here, count as used.
   */
  unused: string[];
}

/** How a package's manifest and its files' imports disagree. */
export function mismatch(
  pkg: { name: string; [key: string]: unknown },
  files: { file: string; text: string }[],
): Mismatch {
  const field = (f: string) => Object.keys((pkg[f] ?? {}) as Record<string, string>);
  const declared = new Set([...field('dependencies'), ...field('devDependencies'), ...field('peerDependencies')]);
  const importedBy = new Map<string, string>();
  for (const { file, text } of files)
    for (const p of importedPackages(text)) if (!importedBy.has(p)) importedBy.set(p, file);
  const usesBuiltins = files.some(({ text }) => /['"]node:/.test(text));
  const peers = new Set(field('peerDependencies'));
  const used = (dep: string) =>
    peers.has(dep) ||
    (dep.startsWith('@types/')
      ? typesFor(dep) === 'node'
        ? usesBuiltins
        : importedBy.has(typesFor(dep))
      : importedBy.has(dep));
  return {
    undeclared: Object.fromEntries(
      [...importedBy].filter(([p]) => p !== pkg.name && !declared.has(p)).sort(([a], [b]) => a.localeCompare(b)),
    ),
    unused: [...declared].filter((d) => !used(d)).sort(),
  };
}

describe('each workspace package depends on what it imports', () => {
  it('reads the imports a source file can make, and leaves out relative paths and built-ins', () => {
    // Written with « » for quotes, so that this file's own imports are not these.
    const text = [
      'import { a, type B } from «alpha»;',
      'import type { C } from «@scope/beta/sub»;',
      'import {\n  d,\n  e,\n} from «gamma/deep/path»;',
      'export { f } from «delta»;',
      'import «epsilon/register»;',
      'const z = await import(«zeta»);',
      'const eta = require.resolve(«eta/package.json»);',
      'const theta = createRequire(import.meta.url).resolve(«theta»);',
      'import path from «node:path»;',
      'import fs from «fs»;',
      'import { g } from «./local.ts»;',
      '// a comment that says import and, later, from «iota» in quotes',
    ]
      .join('\n')
      .replace(/[«»]/g, "'");
    expect(importedPackages(text).sort()).toEqual(
      ['@scope/beta', 'alpha', 'delta', 'epsilon', 'eta', 'gamma', 'theta', 'zeta'].sort(),
    );
  });

  it('fails on a dependency nothing imports and on an import no dependency names', () => {
    const pkg = {
      name: '@vendor-review/example',
      dependencies: { pg: 'catalog:', left: '1.0.0' },
      devDependencies: { '@types/pg': 'catalog:', '@types/gone': '1.0.0' },
    };
    const files = [
      { file: 'src/a.ts', text: 'import pg from «pg»;\nimport { x } from «@vendor-review/example/sub»;' },
      { file: 'test/a.test.ts', text: 'import { it } from «vitest»;' },
    ].map((f) => ({ ...f, text: f.text.replace(/[«»]/g, "'") }));
    expect(mismatch(pkg, files)).toEqual({
      undeclared: { vitest: 'test/a.test.ts' },
      unused: ['@types/gone', 'left'],
    });
  });

  it('counts a peer dependency, and the dev dependency that installs it, as used', () => {
    const pkg = {
      name: '@vendor-review/example',
      peerDependencies: { sdk: '1' },
      devDependencies: { sdk: '1', gone: '1' },
    };
    expect(mismatch(pkg, [{ file: 'src/a.ts', text: '' }])).toEqual({ undeclared: {}, unused: ['gone'] });
  });

  const packages = workspacePackages();
  it('finds the workspace packages', () => {
    expect(packages.length).toBeGreaterThan(5);
  });

  it.each(packages.map((p) => [path.relative(ROOT, p.dir), p] as const))(
    '%s: its package.json names every package its files import, and nothing else',
    (_, { dir, pkg }) => {
      const files = sourceFiles(dir).map((f) => ({ file: path.relative(dir, f), text: readFileSync(f, 'utf8') }));
      expect(files.length).toBeGreaterThan(0);
      expect(mismatch(pkg, files)).toEqual({ undeclared: {}, unused: [] });
    },
  );
});
