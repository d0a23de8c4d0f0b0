import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every path the project's Markdown names must exist: a README that points a newcomer at a file
 * that moved sends them nowhere. A path is a `code span` or a link target that starts in one of
 * the repository's top-level folders (or names a file at the root), read from the repository root
 * or from the document's own folder.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** What is not the project's own (installed, generated, kept by a person's runs): as .gitignore has it. */
const NOT_OURS = new Set(['node_modules', '.git', '.cache', '.lab', '.tmp', 'report']);
/** The repository's top-level folders, and the folders a package's own documents name paths from. */
const TOP = [
  ...readdirSync(ROOT, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !NOT_OURS.has(d.name))
    .map((d) => d.name),
  'src',
  'harness',
  'test',
];

function markdownFiles(dir = ''): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((d) => {
    const rel = path.join(dir, d.name);
    if (d.isDirectory()) return NOT_OURS.has(d.name) ? [] : markdownFiles(rel);
    return d.name.endsWith('.md') ? [rel] : [];
  });
}

/** Candidate paths in a Markdown text: code spans and link targets that look like files or folders. */
export function pathsIn(text: string): string[] {
  const spans = [...text.matchAll(/`([^`\n]+)`/g), ...text.matchAll(/\]\(([^)\s#]+)[^)]*\)/g)].map((m) => m[1]!);
  return [
    ...new Set(
      spans
        .map((s) => s.trim().replace(/[.,;:]$/, ''))
        .filter((s) => /^[\w.@-]+(\/[\w.@*-]*)+$/.test(s) && TOP.includes(s.split('/')[0]!))
        .map((s) => s.replace(/\/\*.*$/, '')),
    ),
  ];
}

describe('the paths the Markdown files name', () => {
  it('finds paths in code spans and links, not in prose or commands', () => {
    expect(pathsIn('see `compare/src/runtimes.ts`, [bench](compare/src/bench/README.md) and `pnpm compare`')).toEqual([
      'compare/src/runtimes.ts',
      'compare/src/bench/README.md',
    ]);
  });

  for (const file of markdownFiles()) {
    it(`${file}: every path it names exists`, () => {
      const dir = path.dirname(path.join(ROOT, file));
      const missing = pathsIn(readFileSync(path.join(ROOT, file), 'utf8')).filter(
        (p) => !existsSync(path.join(ROOT, p)) && !existsSync(path.join(dir, p)),
      );
      expect(missing).toEqual([]);
    });
  }
});
