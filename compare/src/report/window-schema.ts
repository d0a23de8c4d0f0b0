import { DURABILITIES, VARIANTS, type Durability, type Variant } from '@vendor-review/pipeline';
import { WINDOW_STEPS, type WindowStep } from '@vendor-review/conformance';
import { z } from 'zod';

/** One run of a window cell: how late worker A really died, and whether the step ran again. */
export const WindowRunSchema = z.object({
  runId: z.string(),
  status: z.enum(['completed', 'stuck', 'failed', 'lost', 'error']),
  realDelayMs: z
    .number()
    .nullable()
    .describe("between the step's end and worker A's death, by A's own clock; 0 for a kill at once"),
  reran: z.boolean().nullable().describe("the step's own call reached the world again; null: could not be judged"),
  lost: z
    .boolean()
    .describe(
      'nothing durable was left of the run: the resumer could not go on with it, or (the first checkpoint) the runtime held no run when worker A died',
    ),
  lateMs: z
    .number()
    .nullable()
    .describe("how much later than asked worker A's timer fired (real − asked delay); null for a kill at once"),
  cpuBusy: z
    .number()
    .nullable()
    .describe(
      "the share of the machine's CPU time (all cores, from /proc/stat) that was busy over the delay; null without /proc/stat or when no tick passed",
    ),
  cpuTicks: z
    .number()
    .nullable()
    .describe('the /proc/stat ticks (10 ms of one core each) cpuBusy rests on: few for a short delay'),
  start: z
    .object({
      existedAtKill: z
        .boolean()
        .nullable()
        .describe("the runtime's own record held the run right after worker A died (null: not counted)"),
      runsAfter: z
        .number()
        .int()
        .nullable()
        .describe("runs the runtime's record holds under the run's id after worker B made the start call again"),
      mails: z.number().int().describe('review mails the world received for the run: one per run that got to the end'),
      secondRun: z.boolean().describe('retrying the start with the same id made a second run (record or world)'),
    })
    .nullable()
    .describe('the first checkpoint only: whether the run existed, and whether retrying its start made a second'),
  why: z.string().nullable(),
});

/** A distribution over a row's runs, for figures that vary run to run. */
const SpreadSchema = z
  .object({ n: z.number().int(), median: z.number(), max: z.number() })
  .nullable()
  .describe('over the runs that have the figure: how many, their median and their maximum; null: none has it');

const quartile = (which: string) =>
  z
    .number()
    .nullable()
    .describe(
      `where the share of runs not keeping the step falls through ${which} (the shares made non-increasing, adjacent delays that say otherwise pooled by their runs; linear between the delays); null: no delay reached that share, or the largest still did`,
    );

const DurableQuartilesSchema = z.object({
  threeQuartersMs: quartile("three quarters: the time to durable's first quartile"),
  halfMs: quartile('one half: the median time to durable'),
  quarterMs: quartile("one quarter: the time to durable's third quartile"),
});

/** A series' window, as conformance window/sweep.ts windowSeriesFigures computes it. */
export const WindowFiguresSchema = z
  .object({
    lastRerunMs: z
      .number()
      .nullable()
      .describe('the largest delay at which a run did not keep the step (ran it again, or lost the run); null: none'),
    noneFromMs: z
      .number()
      .nullable()
      .describe(
        'the smallest delay from which no run failed to keep it, there and at every larger delay tried; null: the largest still did',
      ),
    ...DurableQuartilesSchema.shape,
    onRealDelays: DurableQuartilesSchema.describe(
      'the same quartiles with each run at its real delay (from the step’s end to worker A’s death, as its timer measured it) instead of the delay asked; a timer that fired late moves these less',
    ),
    points: z
      .array(
        z.object({
          delayMs: z.number(),
          runs: z.number().int(),
          of: z.number().int().describe('runs that say either way (judged, or lost)'),
          notKept: z.number().int().describe('of those, runs that ran the step again or lost the run'),
        }),
      )
      .describe('every delay tried, rising'),
  })
  .describe("the series' window (this runtime configuration and step), the same on each of its rows");

/**
 * The window suite's rows in results.json: one per runtime configuration, step and asked delay,
 * with every run under it (the distribution, never one sample).
 */
export const WindowRowSchema = z
  .object({
    suite: z.literal('window'),
    runtime: z.string(),
    runtimeLabel: z.string(),
    variant: z.enum(VARIANTS as [Variant, ...Variant[]]),
    durability: z.enum(DURABILITIES as [Durability, ...Durability[]]).nullable(),
    step: z
      .enum(WINDOW_STEPS as [WindowStep, ...WindowStep[]])
      .describe('model: after the first model answer is in; note: after the first tracker note is accepted'),
    delayMs: z.number().describe('the delay asked for between the end of the step’s work and the kill'),
    runs: z.number().int().positive(),
    judged: z.number().int().describe('runs that completed with worker A dead at the point'),
    reran: z.number().int().describe('judged runs in which the finished step ran again'),
    lost: z.number().int().describe('runs the resumer could not go on with: nothing durable'),
    outcomes: z.array(WindowRunSchema),
    status: z.enum(['ran', 'error']).describe('error: no run could be judged, nor was one lost'),
    cellId: z.string(),
    wallMs: z.number().describe('the median wall time of its runs'),
    lateMs: SpreadSchema.describe("how much later than asked worker A's timer fired, over the row's runs"),
    cpuBusy: SpreadSchema.describe("the machine's busy CPU share over the delay, over the row's runs"),
    startRuns: z
      .object({
        existed: z.number().int().describe('runs whose run the runtime held when worker A died'),
        secondRuns: z.number().int().describe('runs in which retrying the start with the same id made a second run'),
      })
      .nullable()
      .describe('the first checkpoint only'),
    figures: WindowFiguresSchema,
  })
  .describe('one delay of the commit window suite, for one runtime configuration and step');

export type WindowRow = z.infer<typeof WindowRowSchema>;
