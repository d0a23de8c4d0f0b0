import { findings, provenanceLine } from './findings.ts';
import { textTable } from './format.ts';
import type { BenchReport } from './report.ts';
import { allTables } from './tables.ts';

/** What `pnpm bench` prints: each section's table with its note, then the findings in sentences. */
export function renderText(r: BenchReport): string {
  const out: string[] = [];
  for (const t of allTables(r)) {
    out.push(`${t.title}`, `  ${t.note}`, '', textTable(t.head, t.rows, t.numeric), '');
  }
  out.push('What durability costs', ...findings(r).map((f) => `- ${f.replace(/\*\*/g, '').replace(/`/g, '')}`), '');
  out.push(provenanceLine(r).replace(/`/g, ''));
  return out.join('\n');
}
