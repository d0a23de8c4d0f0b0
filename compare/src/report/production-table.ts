import { HAZARD_SECTIONS, VARYING_REPEATS, type HazardSection } from '@vendor-review/conformance';
import type { Figure, HazardObservation } from '@vendor-review/conformance';
import type { Column, Row, Section } from './document.ts';
import { sectionHtml } from './render-html.ts';
import { sectionText, type TextOptions } from './render-text.ts';
import { kindsText, runsText } from '../table.ts';
import type { ProductionRow } from './results.ts';
import { hazardAnchor } from './scorecard.ts';
import { renderWritersChart } from './writers-chart.ts';

/**
 * The production hazards as report sections, for the terminal, results.md and report.html: one
 * section per hazard section (what the reader should learn), one table per hazard case with each
 * runtime and variant, the verdict, the figures behind it, and whether it is what the variant
 * must show (or why this runtime is documented to differ). The terminal gives the verdict in a
 * word and marks a row that does not conform beside its figures; the page says it in words.
 */
export function figureText(name: string, v: Figure): string {
  if (v === null) return `no ${name}`;
  if (typeof v === 'boolean') return `${name} ${v ? 'yes' : 'no'}`;
  return `${name} ${v}`;
}

export function productionLabel(r: Pick<ProductionRow, 'runtimeLabel' | 'variant'>): string {
  return `${r.runtimeLabel} ${r.variant}`;
}

const TEXT = ['text'] as const;

const COLUMNS: Column[] = [
  { title: 'runtime / variant', width: 14 },
  { title: 'verdict', width: 18, only: ['text', 'markdown'] },
  { title: 'verdict', only: ['html'] },
  { title: 'figures', wrap: true, only: TEXT },
  { title: 'figures', only: ['markdown', 'html'] },
  { title: 'conforms', only: ['markdown'] },
  { title: 'conforms', only: ['html'] },
];

/** Where it helps, the run's durable record as a picture under its row (two writers: who wrote what, and the fork). */
function picture(r: ProductionRow, obs: HazardObservation | undefined): string {
  if (r.section !== 'two-writers' || !obs) return '';
  const svg = renderWritersChart(obs.durable);
  return svg ? `<tr class="picture"><td></td><td colspan="3">${svg}</td></tr>` : '';
}

/**
 * A row's runs where its verdict depends on timing: how often each outcome came (its verdict and
 * what it cost), or that this was one run of several it might have been.
 */
export function hazardRunsText(r: ProductionRow): string | null {
  return runsText(
    r,
    VARYING_REPEATS,
    () =>
      r.outcomes
        .map((o) => {
          const kinds = kindsText(o);
          const cost = [
            kinds === 'none' ? 'nothing repeated' : kinds,
            ...(o.sideEffectDuplicated ? ['an effect twice'] : []),
          ];
          return `${o.verdict ?? o.status} (${cost.join(', ')}) ${o.count}/${r.repetitions}`;
        })
        .join(' · '),
    'hazard row',
  );
}

function row(r: ProductionRow, obs: HazardObservation | undefined): Row {
  const ok = r.violations.length === 0;
  const runs = hazardRunsText(r);
  // Several runs: the figures are the worst one's, and the distribution says what the others did.
  const figures = [
    ...Object.entries(r.figures).map(([k, v]) => figureText(k, v)),
    ...(runs ? [r.repetitions > 1 ? `${runs} (figures: the worst)` : runs] : []),
  ].join(' · ');
  const mark = ok ? (r.deviation ? ' (documented)' : '') : ' ✗ not what it must show';
  const tone = ok ? undefined : ('bad' as const);
  return {
    id: hazardAnchor(r),
    data: { hazard: r.scenario, runtime: r.runtime, variant: r.variant },
    cells: [
      productionLabel(r),
      { text: r.status === 'ran' ? (r.verdict ?? '?') : r.status, ...(tone ? { tone } : {}) },
      {
        text: r.status === 'ran' ? `${r.verdict}: ${r.verdictText ?? ''}` : `${r.status}: ${r.note ?? ''}`,
        class: 'verdict',
        ...(tone ? { tone } : {}),
      },
      { text: `${figures}${mark}`, ...(tone ? { tone } : {}) },
      { text: figures, class: 'figures' },
      ok ? (r.deviation ? `yes (documented: ${r.deviation})` : 'yes') : `**no**: ${r.violations.join('; ')}`,
      {
        text: ok
          ? r.deviation
            ? `as documented for this runtime: ${r.deviation}`
            : 'what this variant must show'
          : `not what it must show: ${r.violations.join('; ')}`,
        class: ok ? 'no-good' : 'yes-bad',
      },
    ],
    htmlAfter: picture(r, obs),
    ...(r.status !== 'ran' && r.note ? { textAfter: [r.note] } : {}),
  };
}

/** The terminal's production block: every section, a blank line between them. */
export function renderProduction(rows: ProductionRow[], o: TextOptions): string {
  return productionSections(rows, { level: 2 })
    .map((s) => sectionText(s, o).join('\n'))
    .join('\n\n');
}

/** report.html's production sections (h3, under its own h2), with the two writers' pictures. */
export function renderProductionSections(
  rows: ProductionRow[],
  observations: readonly HazardObservation[] = [],
): string {
  return productionSections(rows, { observations }).map(sectionHtml).join('\n');
}

export function productionSections(
  rows: ProductionRow[],
  o: { observations?: readonly HazardObservation[]; level?: 2 | 3 } = {},
): Section[] {
  const obsOf = (r: ProductionRow) => o.observations?.find((x) => x.runId !== null && x.runId === r.runId);
  const sections = [...new Set(rows.map((r) => r.section))] as HazardSection[];
  return sections.map((section) => {
    const info = HAZARD_SECTIONS[section];
    const block = rows.filter((r) => r.section === section);
    const lesson = (only: readonly ('text' | 'markdown' | 'html')[]) =>
      ({ kind: 'paragraph', style: 'lesson', text: info.lesson, only }) as const;
    return {
      heading: info.title,
      textHeading: `${section} — ${info.title}`,
      id: `hazard-${section}`,
      level: o.level ?? 3,
      blocks: [
        lesson(['markdown', 'html']),
        ...[...new Set(block.map((r) => r.scenario))].map((scenario) => {
          const rs = block.filter((r) => r.scenario === scenario);
          return {
            kind: 'table' as const,
            table: {
              caption: rs[0]!.title,
              class: 'hazard',
              head: false,
              indent: 4,
              columns: COLUMNS,
              rows: rs.map((r) => row(r, obsOf(r))),
            },
          };
        }),
        // In the terminal the lesson closes the section, under the verdicts it explains.
        lesson(TEXT),
      ],
    };
  });
}

/** The production suite's part of the report: its heading and what a row is (Markdown, HTML), then a section per hazard section. */
export function productionReport(rows: ProductionRow[], observations: readonly HazardObservation[] = []): Section[] {
  if (!rows.length) return [];
  return [
    {
      heading: 'Production hazards: resumable is not correct',
      id: 'production',
      only: ['markdown' as const, 'html' as const],
      blocks: [
        {
          kind: 'paragraph' as const,
          text: "Each row put one runtime, in one variant, through one hazard, with real worker processes and the simulated world; the verdict is judged from the world's ledger and the durable records.",
        },
      ],
    },
    ...productionSections(rows, { observations, level: 3 }),
  ];
}
