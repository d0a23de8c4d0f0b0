import os from 'node:os';
import { z } from 'zod';
import { DURABILITIES, GRANULARITIES, VARIANTS } from '@vendor-review/pipeline';
import { MATRIX_CRASH_POINTS, STOP_GRACE_MS, STOP_MODES } from '@vendor-review/instrument';
import {
  DEFAULT_HAZARDS,
  HAZARD_IDS,
  HAZARDS,
  VARYING_REPEATS,
  WINDOW_DELAYS_MS,
  WINDOW_STEPS,
} from '@vendor-review/conformance';
import { commaList, parseCli, UsageError, wholeNumber } from '@vendor-review/worker-io';
import { WINDOW_RUNS, type CompareOptions } from './options.ts';
import { RUNTIME_NAMES } from './runtimes.ts';
import { SUITES } from './suites/index.ts';
import { wrap } from './table.ts';

export { UsageError, type CompareOptions };

const SUITE_NAMES = SUITES.map((s) => s.name);

/**
 * Cells at once by default: two per core, at least 4, at most 16. A run is CPU-bound (every cell
 * starts two or more worker processes); on two cores four cells already keep both busy, while a
 * laptop with more cores would sit idle at four.
 */
export function defaultConcurrency(cores: number = os.availableParallelism()): number {
  return Math.min(16, Math.max(4, 2 * cores));
}
/**
 * What runs without --suite: the suites that say they run by default (every crash point and one
 * production hazard per lesson); the default run must answer in a couple of minutes.
 */
export const DEFAULT_SUITES: readonly string[] = SUITES.filter((s) => s.byDefault).map((s) => s.name);

const NUMBERS = ['none', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

/** `--suite`'s lines of the usage: the registry's names, the default, what each measures. */
const SUITE_USAGE = [
  `  --suite    ${SUITE_NAMES.join(',')}`,
  ...wrap(
    `which suites (default: ${DEFAULT_SUITES.join(',')}; --full: all ${NUMBERS[SUITES.length] ?? SUITES.length}): ${SUITES.map((s) => s.about).join(', ')}`,
    117,
    ' '.repeat(41),
  ),
].join('\n');

export const USAGE = `usage: pnpm compare [options]
  (default: for every registered runtime, its default configuration and its hardened one against every crash
  point, killed with SIGKILL, once each, and one production hazard per lesson (--hazard below): about 2.5
  minutes with five runtimes and plain on the 2-core machine measured; --full adds the rest: 7 minutes there
  with four runtimes, before the window suite, which adds about 13 more)
  --full                                 every durability mode, --stop kill,term, every suite (granularity too), and
                                         the cells and hazard rows whose outcome depends on timing ${VARYING_REPEATS} times, to show
                                         their distribution
${SUITE_USAGE}
  --runtime  <name>[,<name>…]            which runtimes (default: every registered one): ${RUNTIME_NAMES.join(', ')}
  --variant  naive,hardened              which variants (default: both; baselines always run)
  --crash    <point>[,<point>…]          crash points (default: all): ${MATRIX_CRASH_POINTS.join(', ')}
  --hazard   <hazard>[,<hazard>…]        production hazards (default: one per lesson, the one whose rows show it most
                                         sharply; --full: every one). Default:
${wrap(DEFAULT_HAZARDS.join(', '), 117, ' '.repeat(41)).join('\n')}
                                         and with --full also:
${wrap(
  HAZARD_IDS.filter((h) => !DEFAULT_HAZARDS.includes(h))
    .map((h) => ('optIn' in HAZARDS[h] ? `${h} (opt-in: only the runtimes that take part)` : h))
    .join(', '),
  117,
  ' '.repeat(41),
).join('\n')}
  --durability sync,async,exit           the naive durability modes of a runtime that has them (default: the
                                         runtime's own default; --full: all three)
  --stop     kill,term                   how worker A leaves at the crash point (default: kill; --full: both): kill = SIGKILL;
                                         term = SIGTERM with the step in flight, SIGKILL after a ${STOP_GRACE_MS / 1000} s grace
                                         (in each variant's baseline configuration, plus a step longer than the grace)
  --granularity ${GRANULARITIES.join(',')}
                                         the granularity suite's node sizes (default: all three), in the hardened
                                         variant unless --variant says otherwise
  --window-step start,model,note         the window suite's steps (default: all three): the first checkpoint (δ from
                                         the call that starts the run, in the process that makes it),
                                         after the model's answer, after the tracker's note
  --delay    <ms>[,<ms>…]                the window suite's delays, climbed until two in a row run nothing again, finer
                                         ones added where the outcome flips (default: ${WINDOW_DELAYS_MS.join(',')})
  --repeat N                             run every cell and hazard row N times and show the distribution (default:
                                         once; --full: those whose outcome depends on timing ${VARYING_REPEATS} times;
                                         the window suite: runs per delay, default ${WINDOW_RUNS})
  --model-upstream URL                   forward model calls to a real OpenAI-compatible provider (…/v1), still
                                         counted and priced by the world: model from OPENAI_MODEL, key from OPENAI_API_KEY
  --clean                                remove what earlier runs left in DATABASE_URL's database (only that), then exit
  --concurrency N                        cells run at once (default: two per CPU core, 4 to 16: ${defaultConcurrency()} here); in the
                                         window suite each worker A runs alone whatever N: every other worker is frozen
                                         from A's start to its kill (servers and PostgreSQL stay shared)
  --bound S                              seconds before a waiting phase is declared stuck (default: 90)
  --json                                 print only the results JSON on stdout (progress on stderr)
  --report-dir DIR                       where results.json, results.md, report.html go (default: ./report)
  --keep-infra                           leave the world, PostgreSQL and the runtimes' servers running at the end
  --profile                              after the table, where the time went: worker starts (wall, CPU), the
                                         runtime's own waits, the harness's polls and reads, the longest rows`;

const OptionsSchema = z.object({
  'model-upstream': z
    .string()
    .optional()
    .refine((u) => u === undefined || /^https?:\/\/[^/\s]+/.test(u), {
      message: '--model-upstream needs an http(s) URL of an OpenAI-compatible API, e.g. https://provider.example/v1',
    }),
  clean: z.boolean().default(false),
  json: z.boolean().default(false),
  'report-dir': z.string().min(1, '--report-dir needs a folder').default('report'),
  'keep-infra': z.boolean().default(false),
  profile: z.boolean().default(false),
  full: z.boolean().default(false),
});

/** `--delay 0,5,50`: whole or decimal milliseconds from 0 to 10 s, rising. */
function delays(text: string | undefined): number[] | undefined {
  if (text === undefined) return undefined;
  const items = text.split(',').map((t) => t.trim());
  const ms = items.map(Number);
  const bad = items.find((t, i) => !/^\d+(\.\d+)?$/.test(t) || ms[i]! > 10_000);
  if (bad !== undefined) throw new UsageError(`--delay takes milliseconds from 0 to 10000, got "${bad}"`);
  if (ms.some((d, i) => i > 0 && d <= ms[i - 1]!)) throw new UsageError(`--delay must rise, got "${text}"`);
  return ms;
}

/** Parses argv (without node and script); throws UsageError with one readable line, HelpRequested on --help. */
export function parseCompareArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): CompareOptions {
  const { values } = parseCli(
    {
      usage: USAGE,
      options: {
        suite: { type: 'string' },
        runtime: { type: 'string' },
        variant: { type: 'string' },
        crash: { type: 'string' },
        hazard: { type: 'string' },
        durability: { type: 'string' },
        stop: { type: 'string' },
        granularity: { type: 'string' },
        'window-step': { type: 'string' },
        delay: { type: 'string' },
        repeat: { type: 'string' },
        concurrency: { type: 'string' },
        bound: { type: 'string' },
        json: { type: 'boolean' },
        'report-dir': { type: 'string' },
        'keep-infra': { type: 'boolean' },
        'model-upstream': { type: 'string' },
        clean: { type: 'boolean' },
        profile: { type: 'boolean' },
        full: { type: 'boolean' },
      },
    },
    argv,
  );
  const parsed = OptionsSchema.safeParse(values);
  if (!parsed.success) throw new UsageError(parsed.error.issues[0]!.message);
  const o = parsed.data;
  const suites = commaList('--suite', values.suite, SUITE_NAMES);
  const runtimes = commaList('--runtime', values.runtime, RUNTIME_NAMES);
  const variants = commaList('--variant', values.variant, VARIANTS);
  const crashPoints = commaList('--crash', values.crash, MATRIX_CRASH_POINTS, 'crash point');
  const hazards = commaList('--hazard', values.hazard, HAZARD_IDS, 'hazard');
  const durabilities = commaList('--durability', values.durability, DURABILITIES);
  const stops = commaList('--stop', values.stop, STOP_MODES);
  const granularities = commaList('--granularity', values.granularity, GRANULARITIES);
  const windowSteps = commaList('--window-step', values['window-step'], WINDOW_STEPS);
  const windowDelays = delays(values.delay);
  const repeat = wholeNumber('--repeat', values.repeat, { max: 50 });
  const concurrency = wholeNumber('--concurrency', values.concurrency, { max: 32 }) ?? defaultConcurrency();
  const boundSeconds = wholeNumber('--bound', values.bound, { max: 600 }) ?? 90;
  const upstreamModel = env.OPENAI_MODEL?.trim();
  if (o['model-upstream'] && !upstreamModel)
    throw new UsageError('--model-upstream needs OPENAI_MODEL: the model name the provider serves (e.g. gpt-4o-mini)');
  return {
    suites: suites ?? (o.full ? [...SUITE_NAMES] : [...DEFAULT_SUITES]),
    runtimes,
    variants,
    crashPoints,
    // Without --hazard: one per lesson, or every one with --full.
    hazards: hazards ?? (o.full ? undefined : [...DEFAULT_HAZARDS]),
    durabilities,
    ...(stops ? { stops } : o.full ? { stops: [...STOP_MODES] } : {}),
    ...(o.full ? { full: true } : {}),
    granularities,
    windowSteps,
    windowDelays,
    repeat,
    json: o.json,
    reportDir: o['report-dir'],
    keepInfra: o['keep-infra'],
    ...(o['model-upstream'] ? { modelUpstream: { baseUrl: o['model-upstream'], model: upstreamModel! } } : {}),
    clean: o.clean,
    concurrency,
    boundSeconds,
    ...(o.profile ? { profile: true } : {}),
  };
}
