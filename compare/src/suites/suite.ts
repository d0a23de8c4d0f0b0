import { dependsOnTiming, distributionRepeats, VARYING_REPEATS, type RuntimeInfo } from '@vendor-review/conformance';
import type { ExpectedTimes } from '../expected-times.ts';
import type { Infra, InfraOptions } from '../infra.ts';
import type { RunObserver } from '../observer.ts';
import type { CompareOptions } from '../options.ts';
import type { Progress } from '../progress.ts';
import type { Section } from '../report/document.ts';
import type { Results, ResultsMeta, Row, RowSchema } from '../report/results-schema.ts';
import type { RunSettings } from '../run-cell.ts';

/**
 * One suite of `pnpm compare`, whole: what it plans from the options and the runtimes, what it
 * expects that to take, how it runs on the shared lanes, the rows it returns, and its part of the
 * report. The comparison (run-compare.ts) is a loop over the selected suites; the registry
 * (index.ts) lists them, one line each, and nothing else names one.
 *
 * The phases, in this order:
 * - plan: from the parsed options and the registered runtimes, before the infrastructure starts;
 * - run: on the shared lanes, when its phase comes (`phase`);
 * - report: its rows in results.json (`rowSchema`), its sections of the terminal table, results.md
 *   and report.html (`sections`), drawn by the renderers every report shares.
 */
export interface Suite<P extends SuitePlan = SuitePlan, O = unknown, R extends Row = Row> {
  /** Its name on the command line (`--suite`) and in its rows (`suite`). */
  readonly name: string;
  /** What it measures, in a few words, for `--help`. */
  readonly about: string;
  /** Runs without `--suite` (`--full` runs every suite). */
  readonly byDefault: boolean;
  /**
   * When it runs: `alone` before everything else, one such suite after the other, with the machine
   * to itself (what it measures is timing); `lead` on the shared lanes, `--concurrency` cells at
   * once; `beside` at the same time as the lead suites, its runs mostly waiting (`lanes.quiet`
   * settles when the lead suites are done).
   */
  readonly phase: 'alone' | 'lead' | 'beside';
  /** Its rows' schema in results.json: `suite` is its name. */
  readonly rowSchema: RowSchema;
  plan(options: CompareOptions, runtimes: readonly RuntimeInfo[], expected: ExpectedTimes): P;
  /** Runs the plan; tells the observer of every run as it ends. */
  run(plan: P, lanes: Lanes, observer: RunObserver): Promise<SuiteRun<O, R>>;
  /** Its sections of the report, from its rows (none: no sections). */
  sections(rows: R[], context: SectionContext<O>): Section[];
  /** What the report's first line counts of it ("12 crash cells"), if it counts it. */
  tally?(rows: R[]): string;
  /** The rules its sections need in report.html. */
  readonly css?: string;
}

export interface SuitePlan {
  /**
   * Each run planned before the first starts, with what a past run took (ms; expected-times.ts),
   * null where none measured it: the ETA counts the typical run's length for those. A suite that
   * chooses its runs as it goes adds the rest through `lanes.progress.more`.
   */
  readonly expectedMs: readonly (number | null)[];
  /** What it will run, in a few words, for the lines before the infrastructure starts; null: nothing to say. */
  readonly summary: string | null;
  /** What it needs of the infrastructure beyond the shared servers. */
  readonly infra?: Pick<InfraOptions, 'restartServers'>;
}

/** The lanes every suite runs on: the infrastructure, the settings, the progress display. */
export interface Lanes extends RunSettings {
  readonly infra: Infra;
  /** Cells at once (`--concurrency`). */
  readonly concurrency: number;
  readonly progress: Progress;
  labelOf(runtime: string): string;
  /** A run's expected length (the ETA, the longest first): what a past run measured, else the typical run's. */
  expectedMs(measured: number | null): number;
  /** Settles once the lead suites' runs are done (at once for the lead suites themselves). */
  readonly quiet: Promise<void>;
}

export interface SuiteRun<O, R extends Row> {
  rows: R[];
  /** What it observed, run by run: report.html draws some of it; the end-to-end tests check it. */
  observations: O[];
}

export interface SectionContext<O> {
  meta: ResultsMeta;
  /** The terminal's width (at least 120). */
  width: number;
  /** What its run observed, for report.html's pictures; empty for the terminal and Markdown. */
  observations: readonly O[];
}

/** The rows of one suite in a results.json. */
export function rowsOf<R extends Row>(results: Pick<Results, 'rows'>, suite: Suite<SuitePlan, unknown, R>): R[] {
  return results.rows.filter((r) => r.suite === suite.name) as R[];
}

/** A crash cell or a hazard row: what can depend on timing. */
type Timed = Parameters<typeof dependsOnTiming>[0];

/**
 * Times each cell or row runs: `--repeat`, else once; with `--full`, those whose outcome depends on
 * timing several times, to show their distribution.
 */
export function repeatsOf(options: CompareOptions): number | ((s: Timed) => number) {
  return options.repeat ?? (options.full ? distributionRepeats : 1);
}

/** " × 3", or ", 7 of them whose outcome depends on timing × 3" (--full), or nothing: how often the items run. */
export function repeatedText(options: CompareOptions, items: readonly Timed[]): string {
  if (options.repeat) return ` × ${options.repeat}`;
  const varying = options.full ? items.filter(dependsOnTiming).length : 0;
  return varying ? `, ${varying} of them whose outcome depends on timing × ${VARYING_REPEATS}` : '';
}
