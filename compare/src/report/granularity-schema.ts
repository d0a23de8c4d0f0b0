import { GRANULARITIES, VARIANTS, type Granularity, type Variant } from '@vendor-review/pipeline';
import { GRANULARITY_CRASHES, type GranularityCrash } from '@vendor-review/conformance';
import { z } from 'zod';

/**
 * The granularity suite's rows in results.json: one per runtime, granularity and crash (early,
 * late, or none: the uncrashed run whose timings are the cost of the boundaries). The first
 * eleven fields are issue 11's contract; the rest are what the table, the chart and a reader need.
 */
export const GranularityRowSchema = z
  .object({
    suite: z.literal('granularity'),
    granularity: z.enum(GRANULARITIES as [Granularity, ...Granularity[]]),
    runtime: z.string(),
    crash: z
      .enum(GRANULARITY_CRASHES as [GranularityCrash, ...GranularityCrash[]])
      .nullable()
      .describe(
        'early: the first model answer is in, its step not durable; ' +
          'late: the last tracker note is written, its step not durable; null: no crash',
      ),
    repeatedModelCalls: z
      .number()
      .int()
      .nullable()
      .describe('model calls made more often than in the uncrashed run; null for it'),
    extraCostUsd: z
      .number()
      .nullable()
      .describe('US dollars beyond the uncrashed run; null when not crashed or a price is unknown'),
    durableRecords: z
      .number()
      .int()
      .nullable()
      .describe('what the runtime keeps durable at the end: checkpoints, history events or journal rows'),
    bytesStored: z.number().int().nullable().describe('what the runtime stores for the run, in bytes'),
    overheadMs: z
      .number()
      .nullable()
      .describe(
        'uncrashed: time between the first and last call to the world not spent in the world (median over repetitions)',
      ),
    runtimeLabel: z.string(),
    variant: z.enum(VARIANTS as [Variant, ...Variant[]]),
    /** `after-progress@3`: the crash point and occurrence the crash stands for. */
    crashPlan: z.string().nullable(),
    repeatedByKind: z.record(z.string(), z.number().int()),
    recoveryMs: z.number().nullable(),
    wallMs: z.number().nullable().describe('uncrashed: first call to the world to the end of the last'),
    worldMs: z.number().nullable().describe('uncrashed: how long the world was busy answering (overlaps counted once)'),
    repetitions: z.number().int().positive(),
    status: z.enum(['completed', 'stuck', 'failed', 'lost', 'error']),
    note: z.string().nullable(),
    cellId: z.string(),
    runId: z.string(),
  })
  .describe('one cell of the granularity suite: a runtime and granularity, crashed early, late, or not at all');

export type GranularityRow = z.infer<typeof GranularityRowSchema>;
