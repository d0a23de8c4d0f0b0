import { HAZARD_SECTIONS, type HazardSection } from '@vendor-review/pipeline';
import type { HazardObservation } from '@vendor-review/conformance';
import { figureText, productionLabel } from './production-table.ts';
import type { ProductionRow } from './results.ts';
import { hazardAnchor } from './scorecard.ts';
import { esc } from './svg.ts';
import { renderWritersChart, WRITERS_CSS } from './writers-chart.ts';

/**
 * The production hazards in report.html: a section per hazard with what the reader should learn,
 * then one table per hazard case: runtime and variant, the verdict in words, the figures behind it,
 * and whether it is what the variant must show (or why this runtime is documented to differ).
 */
export const PRODUCTION_CSS = `
.hazard td.verdict { font-weight: 600; } .hazard td.bad { color: var(--bad); } .hazard td.figures { color: var(--muted); }
.hazard caption { text-align: left; font-weight: 600; padding: 6px 0 2px; }
${WRITERS_CSS}`;

/** Where it helps, the run's durable record as a picture under its row (two writers: who wrote what, and the fork). */
function picture(r: ProductionRow, obs: HazardObservation | undefined): string {
  if (r.section !== 'two-writers' || !obs) return '';
  const svg = renderWritersChart(obs.durable);
  return svg ? `<tr class="picture"><td></td><td colspan="3">${svg}</td></tr>` : '';
}

function row(r: ProductionRow): string {
  const ok = r.violations.length === 0;
  const verdict = r.status === 'ran' ? `${r.verdict}: ${r.verdictText ?? ''}` : `${r.status}: ${r.note ?? ''}`;
  const conforms = ok
    ? r.deviation
      ? `as documented for this runtime: ${r.deviation}`
      : 'what this variant must show'
    : `not what it must show: ${r.violations.join('; ')}`;
  const figures = Object.entries(r.figures)
    .map(([k, v]) => esc(figureText(k, v)))
    .join(' · ');
  return `<tr id="${esc(hazardAnchor(r))}" data-hazard="${esc(r.scenario)}" data-runtime="${esc(r.runtime)}" data-variant="${esc(r.variant)}"><td>${esc(productionLabel(r))}</td><td class="verdict${ok ? '' : ' bad'}">${esc(verdict)}</td><td class="figures">${figures}</td><td class="${ok ? 'no-good' : 'yes-bad'}">${esc(conforms)}</td></tr>`;
}

export function renderProductionSections(rows: ProductionRow[], observations: readonly HazardObservation[] = []): string {
  const obsOf = (r: ProductionRow) => observations.find((o) => o.runId !== null && o.runId === r.runId);
  const sections = [...new Set(rows.map((r) => r.section))] as HazardSection[];
  return sections
    .map((section) => {
      const info = HAZARD_SECTIONS[section];
      const block = rows.filter((r) => r.section === section);
      const tables = [...new Set(block.map((r) => r.scenario))].map((scenario) => {
        const rs = block.filter((r) => r.scenario === scenario);
        return `<table class="hazard"><caption>${esc(rs[0]!.title)}</caption><tr><th>runtime / variant</th><th>verdict</th><th>figures</th><th>conforms</th></tr>${rs.map((r) => row(r) + picture(r, obsOf(r))).join('')}</table>`;
      });
      return `<h3 id="hazard-${esc(section)}">${esc(info.title)}</h3><div class="lesson">${esc(info.lesson)}</div>${tables.join('')}`;
    })
    .join('\n');
}
