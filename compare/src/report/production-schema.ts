import { VARIANTS } from '@vendor-review/pipeline';
import { type HazardId, type HazardSection } from '@vendor-review/conformance';
import { z } from 'zod';
import { KINDS, oneOf } from './results-schema.ts';

/** The production suite's rows in results.json: one per hazard, runtime and variant, over all its runs. */
const variant = oneOf(VARIANTS);

const repeatedByKind = z
  .object(Object.fromEntries(KINDS.map((k) => [k, z.number().int().optional()])))
  .describe('executions beyond what the run needed, per kind of operation');

export const HazardOutcomeSchema = z
  .object({
    outcome: z.string().describe('what makes two runs of the row "the same outcome": verdict and what repeated'),
    count: z.number().int().positive(),
    status: z.enum(['ran', 'skipped', 'error']),
    verdict: z.string().nullable(),
    repeatedByKind,
    sideEffectDuplicated: z.boolean().describe('the outside world kept a second copy of an effect'),
  })
  .describe('one distinct outcome of a hazard row over its runs, with what the first run that had it cost');

export const ProductionRowSchema = z
  .object({
    suite: z.literal('production'),
    // Typed by the hazard catalogue, but a string in the contract: a new hazard is not a new schema.
    scenario: z
      .string()
      .describe('the hazard id (shared-domain/conformance/src/catalogue/hazards.ts)') as unknown as z.ZodType<HazardId>,
    section: z.string().describe('the hazard section') as unknown as z.ZodType<HazardSection>,
    title: z.string(),
    runtime: z.string(),
    runtimeLabel: z.string(),
    variant,
    verdict: z.string().nullable(),
    verdictText: z.string().nullable(),
    expected: z.string(),
    deviation: z.string().nullable(),
    violations: z.array(z.string()),
    figures: z.record(z.string(), z.union([z.number(), z.string(), z.boolean(), z.null()])),
    status: z.enum(['ran', 'skipped', 'error']),
    note: z.string().nullable(),
    runId: z.string().nullable(),
    wallMs: z.number().describe('the median over its runs'),
    repetitions: z.number().int().positive(),
    dependsOnTiming: z
      .boolean()
      .describe('its runtime lists other verdicts a race decides (alsoSeen): one run is one sample'),
    variesAcrossRepeats: z.boolean(),
    outcomes: z
      .array(HazardOutcomeSchema)
      .describe('the distribution over its runs, most frequent first; verdict, figures and note are of the worst'),
  })
  .describe('one production hazard, for one runtime and variant');

export type ProductionRow = z.infer<typeof ProductionRowSchema>;
export type HazardOutcome = z.infer<typeof HazardOutcomeSchema>;
