import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
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
const TOP = [
  'compare',
  'shared-domain',
  'langgraph-impl',
  'temporal-impl',
  'dbos-impl',
  '.ci',
  'src',
  'harness',
  'test',
];

function markdownFiles(): string[] {
  return execFileSync('git', ['ls-files', '*.md'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && !f.includes('node_modules'));
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
