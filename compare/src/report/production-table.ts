import { HAZARD_SECTIONS, type HazardSection } from '@vendor-review/pipeline';
import { fit, wrap } from '../table.ts';
import type { Figure } from '@vendor-review/conformance';
import type { ProductionRow } from './results.ts';

/**
 * The production hazards in the terminal: one block per hazard section (its lesson underneath),
 * one line per runtime and variant with the verdict and the figures behind it. A row whose verdict
 * is not the one its variant must reach is marked, with the reason it is documented to differ or
 * the word that it does not conform.
 */
export function figureText(name: string, v: Figure): string {
  if (v === null) return `no ${name}`;
  if (typeof v === 'boolean') return `${name} ${v ? 'yes' : 'no'}`;
  return `${name} ${v}`;
}

export function productionLabel(r: Pick<ProductionRow, 'runtimeLabel' | 'variant'>): string {
  return `${r.runtimeLabel} ${r.variant}`;
}

export function renderProduction(rows: ProductionRow[], opts: { color: boolean; width: number }): string {
  const paint = (code: string, text: string) => (opts.color ? `\x1b[${code}m${text}\x1b[0m` : text);
  const out: string[] = [];
  const sections = [...new Set(rows.map((r) => r.section))] as HazardSection[];
  for (const section of sections) {
    const info = HAZARD_SECTIONS[section];
    out.push(paint('1;36', `${section} — ${info.title}`));
    const block = rows.filter((r) => r.section === section);
    for (const scenario of [...new Set(block.map((r) => r.scenario))]) {
      const scenarioRows = block.filter((r) => r.scenario === scenario);
      out.push(`  ${scenarioRows[0]!.title}`);
      for (const r of scenarioRows) {
        const verdict = r.status === 'ran' ? (r.verdict ?? '?') : r.status;
        const ok = r.violations.length === 0;
        const figures = Object.entries(r.figures)
          .map(([k, v]) => figureText(k, v))
          .join(' · ');
        const mark = ok ? (r.deviation ? ' (documented)' : '') : paint('31;1', ' ✗ not what it must show');
        const head = `    ${fit(productionLabel(r), 14)} ${paint(ok ? '1' : '31;1', fit(verdict, 18))} `;
        // The figures wrap under themselves, so the label and verdict columns stay aligned.
        const indent = ' '.repeat(4 + 14 + 1 + 18 + 1);
        const tail = wrap(`${figures}${mark}`, opts.width, indent);
        out.push(`${head}${(tail[0] ?? '').trimStart()}`, ...tail.slice(1));
        if (r.status !== 'ran' && r.note) out.push(paint('2', `      ${r.note}`));
      }
    }
    for (const l of wrap(info.lesson, opts.width, '  ▸ ')) out.push(paint('2', l));
    out.push('');
  }
  return out.join('\n');
}
