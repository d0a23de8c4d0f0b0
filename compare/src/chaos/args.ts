/**
 * The command line of `pnpm chaos`, read through the project's one CLI helper: --help exits 0, a
 * mistake exits 2 with one line. Nothing heavy is imported here, so a mistake is reported at once.
 */
import { VARIANTS, type Variant } from '@vendor-review/pipeline';
import { commaList, parseCli, UsageError, wholeNumber } from '@vendor-review/worker-io';
import { runtimesIn } from '../suite-runtimes.ts';
import { isValidSeed } from './schedule.ts';

export const DEFAULT_RUNS = 4;
export const DEFAULT_WORKERS = 2;
export const DEFAULT_BOUND_S = 120;

/**
 * The registry's runtimes, in its order, that a campaign drives: those that take part in the
 * production suite (chaos is about durable runtimes; one without durability is left out). Read
 * from each runtime's info, which loads none of its libraries.
 */
export const CHAOS_RUNTIME_NAMES: readonly string[] = await runtimesIn('production');

export const USAGE = `usage: pnpm chaos [options]
  --seed S                 the fault schedule's seed: letters, digits, _ and - (default: a new one, printed)
  --runs N                 reviews per runtime × variant (default: ${DEFAULT_RUNS}, a quick campaign of about three
                           minutes on two cores; --runs 500 for the full one)
  --runtime ${CHAOS_RUNTIME_NAMES.join(',')}   which runtimes (default: all of them: every registered runtime that
                           takes part in the production suite; one without durability has nothing to crash-test)
  --variant naive,hardened       which variants (default: both; both face the same schedule)
  --workers N              reviews in flight per runtime × variant, and the worker processes of a pool serving a queue (default: ${DEFAULT_WORKERS})
  --bound S                seconds a review may take to end once the strikes are over before it counts as stuck
                           (default: ${DEFAULT_BOUND_S})
  --run ID                 with --seed: replay that one review of an earlier campaign under the same faults (its own
                           from the seed, the strikes that hit it from the campaign's chaos.json in --report-dir)
  --report-dir DIR         where chaos.json and chaos.html go (default: ./report)
  --json                   print chaos.json on stdout (the progress goes to stderr)`;

export interface ChaosCliOptions {
  seed: string;
  /** True when the seed was drawn here, not given. */
  seedDrawn: boolean;
  runs: number;
  runtimes: string[];
  variants: Variant[];
  workers: number;
  boundSeconds: number;
  run: string | null;
  reportDir: string;
  reportDirGiven: boolean;
  json: boolean;
}

export function parseChaosArgs(argv: string[]): ChaosCliOptions {
  const { values } = parseCli(
    {
      usage: USAGE,
      options: {
        seed: { type: 'string' },
        runs: { type: 'string' },
        runtime: { type: 'string' },
        variant: { type: 'string' },
        workers: { type: 'string' },
        bound: { type: 'string' },
        run: { type: 'string' },
        'report-dir': { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    },
    argv,
  );
  if (values.seed !== undefined && !isValidSeed(values.seed))
    throw new UsageError(`--seed: "${values.seed}" must be 1 to 32 letters, digits, _ or -`);
  if (values.run !== undefined && values.seed === undefined)
    throw new UsageError('--run needs the --seed of the campaign it comes from');
  const seed = values.seed ?? String(Math.floor(Math.random() * 1_000_000));
  return {
    seed,
    seedDrawn: values.seed === undefined,
    runs: wholeNumber('--runs', values.runs, { max: 10_000 }) ?? DEFAULT_RUNS,
    runtimes: commaList('--runtime', values.runtime, CHAOS_RUNTIME_NAMES) ?? [...CHAOS_RUNTIME_NAMES],
    variants: commaList('--variant', values.variant, VARIANTS) ?? [...VARIANTS],
    workers: wholeNumber('--workers', values.workers, { max: 16 }) ?? DEFAULT_WORKERS,
    boundSeconds: wholeNumber('--bound', values.bound, { max: 3600 }) ?? DEFAULT_BOUND_S,
    run: values.run ?? null,
    reportDir: values['report-dir'] ?? 'report',
    reportDirGiven: values['report-dir'] !== undefined,
    json: values.json,
  };
}
