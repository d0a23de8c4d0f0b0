import type { CellObservation, HazardObservation } from '@vendor-review/conformance';
import { seconds, TABLE_WIDTH } from '../table.ts';
import { CELL_CARD_CSS, TIMELINE_LEGEND } from './cell-card.ts';
import { renderCostChart } from './chart.ts';
import { CRASH_CSS, crashSections, crashSummarySection } from './crash-sections.ts';
import { code, literal, type ReportDocument, type Section } from './document.ts';
import { granularitySection } from './granularity-table.ts';
import { labelsLine, runtimesTitle, versionsLine } from './meta-lines.ts';
import { productionSections } from './production-table.ts';
import { crashRows, granularityRows, productionRows, windowRows, type Results } from './results.ts';
import { buildScorecard, SCORECARD_CSS, scorecardSection } from './scorecard.ts';
import { GRANULARITY_CSS, PRODUCTION_CSS } from './style.ts';
import { windowSection } from './window-table.ts';

/**
 * The comparison as one report document, drawn three ways: in the terminal after a run, as
 * results.md (for a pull request or a wiki page) and as report.html. The scorecard at a glance,
 * the crash cells by crash point (with each cell's card and timeline in HTML), the cost chart, the
 * production hazards, the granularity suite and the commit window.
 */
const HTML = ['html'] as const;

export interface ResultsDocumentOptions {
  /** The cells' timelines and the hazards' pictures (HTML). */
  observations?: readonly CellObservation[];
  hazards?: readonly HazardObservation[];
  /** Terminal columns (at least 120). */
  width?: number;
}

export function resultsDocument(results: Results, o: ResultsDocumentOptions = {}): ReportDocument {
  const { meta } = results;
  const rows = crashRows(results);
  const production = productionRows(results);
  const granular = granularityRows(results);
  const windowed = windowRows(results);
  const listed = (names: string[]) => (names.length ? names.map(code).join(', ') : 'none');
  const infra = meta.infrastructure;
  // The terminal is never drawn narrower than the crash table's 120 columns.
  const width = Math.max(TABLE_WIDTH, o.width ?? TABLE_WIDTH);
  const scorecard = scorecardSection(buildScorecard(results), { width });
  const crashed = rows.filter((r) => r.crashPoint !== null);
  const sections: Section[] = [
    ...(scorecard ? [scorecard] : []),
    ...(rows.length
      ? [
          {
            only: HTML,
            blocks: [
              {
                kind: 'paragraph' as const,
                text: 'Each cell ran one review on a fresh business run. Worker A (a real process) was killed with SIGKILL at the named crash point, worker B (a new process) resumed the run. Every number comes from outside the workers: the simulated world\'s ledger (what was called, how often, at what cost) and the runtime\'s durable record (its checkpoints, history or step journal). "Repeated" means executed more often than in the uncrashed baseline of the same runtime and variant.',
              },
            ],
          },
          ...(crashed.length
            ? [
                {
                  heading: 'Extra model cost per crash point',
                  id: 'cost',
                  only: HTML,
                  blocks: [{ kind: 'chart' as const, html: renderCostChart(rows, meta.runtimes) }],
                },
              ]
            : []),
          {
            heading: "Crash points, and each cell's timeline",
            id: 'timelines',
            only: HTML,
            blocks: [{ kind: 'html' as const, html: TIMELINE_LEGEND }],
          },
          ...crashSections(rows, { observations: o.observations ?? [], width }),
          crashSummarySection(rows, { wallTimeMs: meta.wallTimeMs, labels: labelsLine(meta) }),
        ]
      : []),
    ...(production.length
      ? [
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
          ...productionSections(production, { observations: o.hazards ?? [], level: 3 }),
        ]
      : []),
    ...(granular.length ? [granularitySection(granular, meta.runtimes, { level: 2 })] : []),
    ...(windowed.length ? [windowSection(windowed, meta.runtimes, { level: 2 })] : []),
  ];
  return {
    title: `Crash comparison: ${runtimesTitle(meta)}`,
    heading: `What re-executes when a worker dies: ${runtimesTitle(meta)}`,
    metaOnly: ['markdown', 'html'],
    meta: [
      `${rows.length} crash cells · ${production.length} production hazard rows · wall time ${seconds(meta.wallTimeMs)} · started ${literal(meta.startedAt)}`,
      `Versions: ${versionsLine(meta)}.`,
      // What the environment gave (URLs, a masked password, a server's words) is shown, never read as markup.
      `Infrastructure: world ${literal(infra.world)}; model ${literal(infra.model)}; PostgreSQL ${literal(infra.postgres)}${infra.servers.map((s) => `; ${s.title} ${literal(s.description)}`).join('')}${infra.restartHazards ? `; the hazards that restart a server, on servers of their own: ${literal(infra.restartHazards)}` : ''}.`,
      `Outside settings in force: ${listed(meta.environment.inForce)}. ` +
        `Set in the harness's environment but deliberately not passed to the workers: ${listed(meta.environment.notPassedToWorkers)}.`,
      `${labelsLine(meta)}. "repeated" counts executions beyond the uncrashed baseline of the same runtime and variant, per kind of operation, as the world's ledger recorded them.`,
    ],
    sections,
    css: `${CRASH_CSS}${CELL_CARD_CSS}${PRODUCTION_CSS}${GRANULARITY_CSS}${SCORECARD_CSS}`,
    width,
  };
}
