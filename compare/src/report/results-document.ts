import { seconds, TABLE_WIDTH } from '../table.ts';
import { SUITES } from '../suites/index.ts';
import { rowsOf, type Suite } from '../suites/suite.ts';
import { code, literal, type ReportDocument, type Section } from './document.ts';
import { labelsLine, runtimesTitle, versionsLine } from './meta-lines.ts';
import type { Results } from './results.ts';
import { buildScorecard, SCORECARD_CSS, scorecardSection } from './scorecard.ts';

/**
 * The comparison as one report document, drawn three ways: in the terminal after a run, as
 * results.md (for a pull request or a wiki page) and as report.html. The scorecard at a glance,
 * then each suite's sections, in the registry's order (suites/index.ts): the crash cells by crash
 * point (with each cell's card and timeline in HTML) and the cost chart, the production hazards,
 * the granularity suite and the commit window.
 */
export interface ResultsDocumentOptions {
  /** The suites whose rows it shows (default: the registry's). */
  suites?: readonly Suite[];
  /** What each suite's run observed, by suite: the cells' timelines and the hazards' pictures (HTML). */
  observations?: Readonly<Record<string, readonly unknown[]>>;
  /** Terminal columns (at least 120). */
  width?: number;
}

export function resultsDocument(results: Results, o: ResultsDocumentOptions = {}): ReportDocument {
  const { meta } = results;
  const suites = o.suites ?? SUITES;
  const listed = (names: string[]) => (names.length ? names.map(code).join(', ') : 'none');
  const infra = meta.infrastructure;
  // The terminal is never drawn narrower than the crash table's 120 columns.
  const width = Math.max(TABLE_WIDTH, o.width ?? TABLE_WIDTH);
  const scorecard = scorecardSection(buildScorecard(results), { width });
  const sections: Section[] = [
    ...(scorecard ? [scorecard] : []),
    ...suites.flatMap((suite) =>
      suite.sections(rowsOf(results, suite), { meta, width, observations: o.observations?.[suite.name] ?? [] }),
    ),
  ];
  const tallies = suites.flatMap((suite) => (suite.tally ? [suite.tally(rowsOf(results, suite))] : []));
  return {
    title: `Crash comparison: ${runtimesTitle(meta)}`,
    heading: `What re-executes when a worker dies: ${runtimesTitle(meta)}`,
    metaOnly: ['markdown', 'html'],
    meta: [
      `${tallies.map((t) => `${t} · `).join('')}wall time ${seconds(meta.wallTimeMs)} · started ${literal(meta.startedAt)}`,
      `Versions: ${versionsLine(meta)}.`,
      // What the environment gave (URLs, a masked password, a server's words) is shown, never read as markup.
      `Infrastructure: world ${literal(infra.world)}; model ${literal(infra.model)}; PostgreSQL ${literal(infra.postgres)}${infra.servers.map((s) => `; ${s.title} ${literal(s.description)}`).join('')}${infra.restartHazards ? `; the hazards that restart a server, on servers of their own: ${literal(infra.restartHazards)}` : ''}.`,
      `Outside settings in force: ${listed(meta.environment.inForce)}. ` +
        `Set in the harness's environment but deliberately not passed to the workers: ${listed(meta.environment.notPassedToWorkers)}.`,
      `${labelsLine(meta)}. "repeated" counts executions beyond the uncrashed baseline of the same runtime and variant, per kind of operation, as the world's ledger recorded them.`,
    ],
    sections,
    css: `${suites.map((suite) => suite.css ?? '').join('')}${SCORECARD_CSS}`,
    width,
  };
}
