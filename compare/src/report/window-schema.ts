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
  lost: z.boolean().describe('the resumer found nothing durable to go on from'),
  why: z.string().nullable(),
});

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
  })
  .describe('one delay of the commit window suite, for one runtime configuration and step');

export type WindowRow = z.infer<typeof WindowRowSchema>;
