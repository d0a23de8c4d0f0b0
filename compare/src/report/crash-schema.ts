import { DURABILITIES, VARIANTS } from '@vendor-review/pipeline';
import { CRASH_POINT_NAMES } from '@vendor-review/instrument';
import { z } from 'zod';
import { KINDS, oneOf } from './results-schema.ts';

/**
 * The crash suite's rows in results.json: one per cell (a runtime, variant and durability killed
 * at one crash point, or its uncrashed baseline), over all its repetitions.
 */

const CELL_STATUSES = ['completed', 'stuck', 'failed', 'lost', 'error'] as const;
const variant = oneOf(VARIANTS);
const durability = oneOf(DURABILITIES).nullable();
const cellStatus = z.enum(CELL_STATUSES);
const usd = z.number().nullable().describe('US dollars; null when a model price is unknown (never 0 for unknown)');

const RepeatedOperationSchema = z.object({
  opKey: z.string(),
  subject: z.string().describe('the operation in words that do not name the run'),
  kind: z.enum(KINDS),
  step: z.string().nullable(),
  count: z.number().int(),
  baselineCount: z.number().int(),
});

export const OutcomeSchema = z
  .object({
    outcome: z.string().describe('what makes two repetitions "the same outcome"'),
    count: z.number().int().positive(),
    status: cellStatus,
    lastDurableShort: z.string(),
    repeatedByKind: z.object(Object.fromEntries(KINDS.map((k) => [k, z.number().int().optional()]))),
    extraModelCalls: z.number().int(),
    sideEffectDuplicated: z.boolean(),
    atTheKill: z
      .string()
      .optional()
      .describe(
        "mid-commit: what the store held when worker A died, read while no worker was alive (the step's pending write, the checkpoint whose commit the kill cut)",
      ),
  })
  .describe('one distinct outcome of a cell over its repetitions, with the facts of the first run that had it');

export const CrashRowSchema = z
  .object({
    suite: z.literal('crash'),
    runtime: z.string(),
    variant: z.union([variant, z.literal('baseline')]),
    durability,
    crashPoint: oneOf(CRASH_POINT_NAMES).nullable().describe('null: the uncrashed baseline'),
    stop: z
      .enum(['kill', 'term'])
      .optional()
      .describe('how worker A left at the crash point: kill (SIGKILL) or term (SIGTERM, SIGKILL after the grace)'),
    stopping: z
      .object({
        graceMs: z.number(),
        left: z.enum(['exited', 'signal', 'killed']),
        exitCode: z.number().int().nullable(),
        leftAfterMs: z.number(),
      })
      .nullable()
      .optional()
      .describe(
        'term: how worker A left — exited by itself, died of the SIGTERM, or killed when the grace ended — and how long after SIGTERM',
      ),
    lastDurable: z.string(),
    firstAfterResume: z.string(),
    repeatedOperations: z.array(z.string()),
    extraModelCalls: z.number().int(),
    extraCostUsd: usd,
    stateDuplicated: z.boolean(),
    sideEffectDuplicated: z.boolean(),
    recoveryMs: z.number().nullable(),
    finalMatchesBaseline: z.boolean(),
    status: cellStatus,
    cellId: z.string(),
    runtimeLabel: z.string(),
    baselineOf: variant.nullable(),
    lastDurableShort: z.string(),
    firstAfterResumeShort: z.string(),
    repeated: z.array(RepeatedOperationSchema),
    repeatSeqs: z.array(z.number().int()).describe('ledger seqs of the re-executions'),
    extraTokens: z.number().int(),
    stateDuplicatedWhy: z.array(z.string()),
    sideEffectDuplicatedWhy: z.array(z.string()),
    note: z.string().nullable(),
    runId: z.string(),
    runtimeIds: z.object({
      threadId: z.string().optional(),
      workflowId: z.string().optional(),
      runtimeRunId: z.string().optional(),
    }),
    link: z.string().nullable(),
    repetitions: z.number().int().positive(),
    recovery: z.object({
      n: z.number().int(),
      medianMs: z.number().nullable(),
      minMs: z.number().nullable(),
      maxMs: z.number().nullable(),
    }),
    cellWallMs: z.object({ median: z.number(), min: z.number(), max: z.number() }),
    variesAcrossRepeats: z.boolean(),
    dependsOnTiming: z
      .boolean()
      .describe(
        'its outcome depends on timing (a racing crash point, or a runtime that says it varies): one run is one sample',
      ),
    outcomes: z.array(OutcomeSchema).describe('the distribution over repetitions, most frequent first'),
    violations: z.array(z.string()).describe('where the cell departs from what its crash point must show'),
    deviation: z.string().nullable().describe('why this runtime and configuration is documented to depart, or null'),
    approver: z
      .object({
        asked: z.number().int().describe('approval requests that reached the approver, keyed repeats included'),
        inbox: z.number().int().describe('approval requests its inbox kept'),
        expected: z.number().int().describe('what the inbox must hold, uncrashed or killed while waiting'),
        why: z.string().nullable().describe('why this runtime and variant departs from one request, or null'),
      })
      .describe(
        "what the approver was sent, in the run with the most requests: apart from the repeats (where the runtime's unit of replay lies, not what a crash cost)",
      ),
  })
  .describe(
    'one cell of the crash suite: a runtime, variant and durability killed at one crash point (or the baseline)',
  );

export type ResultRow = z.infer<typeof CrashRowSchema>;
export type Outcome = z.infer<typeof OutcomeSchema>;
