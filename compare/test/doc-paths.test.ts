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

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown text's headings (a repeated heading gets `-1`, `-2`… as on GitHub). */
function anchorsIn(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of text.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = anchorOf(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

/** The relative link targets of a Markdown text (`[text](../docs/lab.md#a)`), as written: neither a URL nor mail. */
export function relativeLinksIn(text: string): string[] {
  const targets = [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
  return [...new Set(targets.filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t)))];
}

/** The links of one document that lead nowhere: a file or folder that is not there, or a heading that is not. */
function brokenLinks(file: string): string[] {
  const here = path.join(ROOT, file);
  const text = readFileSync(here, 'utf8');
  return relativeLinksIn(text).filter((link) => {
    const [target, anchor] = link.split('#') as [string, string | undefined];
    const resolved = target ? path.resolve(path.dirname(here), decodeURIComponent(target)) : here;
    if (!existsSync(resolved)) return true;
    if (anchor === undefined || !resolved.endsWith('.md')) return false;
    return !anchorsIn(readFileSync(resolved, 'utf8')).has(anchor);
  });
}

describe('the paths the Markdown files name', () => {
  it('finds paths in code spans and links, not in prose or commands', () => {
    expect(pathsIn('see `compare/src/runtimes.ts`, [bench](compare/src/bench/README.md) and `pnpm compare`')).toEqual([
      'compare/src/runtimes.ts',
      'compare/src/bench/README.md',
    ]);
  });

  it('finds relative links and their anchors, not URLs, and makes anchors as GitHub does', () => {
    expect(
      relativeLinksIn('[a](../docs/lab.md), [b](https://example.org/x), [c](#two-commands), [d](x.md "title")'),
    ).toEqual(['../docs/lab.md', '#two-commands', 'x.md']);
    expect(anchorOf('What durability costs: `pnpm bench`')).toBe('what-durability-costs-pnpm-bench');
    expect(anchorOf('Asked to stop (SIGTERM, 5 s grace), the same file')).toBe(
      'asked-to-stop-sigterm-5-s-grace-the-same-file',
    );
  });

  for (const file of markdownFiles()) {
    it(`${file}: every relative link leads to a file that exists, and to a heading it has`, () => {
      expect(brokenLinks(file)).toEqual([]);
    });

    it(`${file}: every path it names exists`, () => {
      const dir = path.dirname(path.join(ROOT, file));
      const missing = pathsIn(readFileSync(path.join(ROOT, file), 'utf8')).filter(
        (p) => !existsSync(path.join(ROOT, p)) && !existsSync(path.join(dir, p)),
      );
      expect(missing).toEqual([]);
    });
  }
});
