import { findings, provenanceLine } from './findings.ts';
import { mdTable } from './format.ts';
import type { BenchReport } from './report.ts';
import { allTables } from './tables.ts';

/** bench.md: the findings first (the part a README quotes), then every table with its note. */
export function renderMarkdown(r: BenchReport): string {
  const out = ['# What durability costs', '', provenanceLine(r), '', ...findings(r).map((f) => `- ${f}`), ''];
  for (const t of allTables(r)) out.push(`## ${t.title}`, '', t.note, '', mdTable(t.head, t.rows), '');
  return `${out.join('\n')}\n`;
}
