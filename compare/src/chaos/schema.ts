import { VARIANTS } from '@vendor-review/pipeline';
import { z } from 'zod';
import { VIOLATION_KINDS } from './checker.ts';
import { STRIKE_KINDS, WORLD_FAULT_KINDS, WORLD_ROUTES } from './schedule.ts';

/**
 * The contract of chaos.json: the campaign validates what it built against it before writing, and a
 * reader without TypeScript has the shape here. A change that breaks a reader bumps the version.
 */
export const CHAOS_SCHEMA_VERSION = 1;

const oneOf = <T extends string>(values: readonly T[]) => z.enum(values as unknown as [T, ...T[]]);
const usd = z.number().nullable().describe('US dollars; null when a model price is unknown');

const WorldFaultSchema = z.object({
  route: oneOf(WORLD_ROUTES),
  kind: oneOf(WORLD_FAULT_KINDS),
  times: z.number().int(),
  delayMs: z.number().int().optional(),
});

export const RunPlanSchema = z.object({
  index: z.number().int(),
  vendor: z.string(),
  crash: z
    .string()
    .nullable()
    .describe("The crash plan of the run's first worker, for a runtime whose workers live per run"),
  stopMs: z.number().int().nullable().describe('for a point:stop plan, how long the worker stays frozen there'),
  faults: z.array(WorldFaultSchema),
  holdApproval: z.boolean().describe('the approval waits for a moment when no worker is alive'),
});

export const StrikeSchema = z.object({
  seq: z.number().int(),
  kind: oneOf(STRIKE_KINDS),
  at: z.number().describe('milliseconds from the start of the campaign'),
  pick: z.number().int(),
  pauseMs: z.number().int().optional(),
  cutMs: z.number().int().optional(),
  burst: WorldFaultSchema.optional(),
});

export const JournalEntrySchema = z.object({
  at: z.number().describe('epoch ms'),
  kind: z.string(),
  pool: z.string().optional(),
  worker: z.string().optional(),
  pid: z.number().int().nullable().optional(),
  runId: z.string().optional(),
  strike: z.number().int().optional(),
  detail: z.string(),
});

const SummarySchema = z
  .object({ n: z.number().int(), median: z.number(), p95: z.number(), min: z.number(), max: z.number() })
  .nullable();

export const PoolRowSchema = z.object({
  pool: z.string(),
  runtime: z.string(),
  title: z.string().optional().describe("the runtime's title, as its module gives it (absent in older files)"),
  variant: oneOf(VARIANTS),
  runs: z.number().int(),
  faults: z.object({
    kill: z.number().int(),
    'crash-point': z.number().int(),
    pause: z.number().int(),
    'postgres-restart': z.number().int(),
    'server-restart': z.number().int(),
    'world-fault': z.number().int(),
    'approve-while-down': z.number().int(),
    partition: z
      .number()
      .int()
      .optional()
      .describe('workers cut off from their store and server (absent in older files)'),
  }),
  completed: z.number().int(),
  deadLettered: z.number().int(),
  stuck: z.number().int(),
  duplicateEffects: z.number().int(),
  lateWrites: z.number().int(),
  falseDeadLetters: z
    .number()
    .int()
    .default(0)
    .describe('hardened runs dead-lettered below the cap of their step’s own errors, judged from the ledger'),
  otherViolations: z.number().int(),
  extraSpendUsd: usd,
  timeToCompletionMs: SummarySchema,
  violationsByKind: z.record(z.string(), z.number().int()),
});

export const ViolationRecordSchema = z.object({
  runId: z.string(),
  pool: z.string(),
  kind: oneOf(VIOLATION_KINDS),
  count: z.number().int(),
  detail: z.string(),
  seed: z.string(),
  plan: RunPlanSchema,
  /** When the run started and ended, epoch ms (ended null: it never did). */
  startedAt: z.number(),
  endedAt: z.number().nullable(),
  schedule: z.array(JournalEntrySchema).describe('what struck this run, its pool and its servers during its life'),
  replay: z.string().describe('the command that runs this one review again under the same faults'),
});

export const RunSummarySchema = z.object({
  runId: z.string(),
  pool: z.string(),
  index: z.number().int(),
  vendor: z.string(),
  end: z.enum(['completed', 'failed', 'stuck']),
  startedAt: z.number(),
  endedAt: z.number().nullable(),
  durationMs: z.number().nullable(),
  extraSpendUsd: usd,
  violations: z.number().int(),
  failure: z.string().nullable().describe('why a failed run failed: its dead letter, or the runtime'),
  plan: RunPlanSchema,
});

export const ChaosResultSchema = z.object({
  schemaVersion: z.literal(CHAOS_SCHEMA_VERSION),
  meta: z.object({
    seed: z.string(),
    runsPerPool: z.number().int(),
    runtimes: z.array(z.string()),
    variants: z.array(oneOf(VARIANTS)),
    workers: z.number().int(),
    boundSeconds: z.number(),
    startedAt: z.string().describe('ISO time'),
    strikesFrom: z.number().nullable().describe("epoch ms of the schedule's zero: a strike's `at` counts from here"),
    wallTimeMs: z.number(),
    command: z.string(),
    replayOf: z.string().nullable().describe('the run id replayed, or null for a campaign'),
    machine: z.object({
      hostname: z.string(),
      cpus: z.number().int(),
      cpuModel: z.string(),
      memoryGiB: z.number(),
      platform: z.string(),
      loadAverage: z.object({ start: z.number(), end: z.number().nullable() }),
    }),
    versions: z.record(z.string(), z.string().nullable()),
    infra: z.object({ world: z.string(), postgres: z.string(), servers: z.array(z.string()) }),
    schedule: z.object({
      gapsMs: z.record(z.string(), z.number()),
      pauseMs: z.tuple([z.number(), z.number()]),
      cutMs: z.tuple([z.number(), z.number()]).optional().describe('absent in older files'),
      armRate: z.number(),
      points: z.array(z.string()),
      maxOccurrence: z.number().int(),
      stopShare: z.number(),
      worldFaultRate: z.number(),
      holdApprovalRate: z.number(),
      vendors: z.array(z.string()),
    }),
    baselines: z.array(
      z.object({ pool: z.string(), vendor: z.string(), runId: z.string(), digest: z.string().nullable() }),
    ),
    notes: z.array(z.string()),
  }),
  rows: z.array(PoolRowSchema),
  violations: z.array(ViolationRecordSchema),
  runs: z.array(RunSummarySchema),
  strikes: z.array(StrikeSchema.extend({ fired: z.boolean() })),
  journal: z.array(JournalEntrySchema).describe('everything the harness did or saw from outside a worker, in order'),
});

export type ChaosResult = z.infer<typeof ChaosResultSchema>;
export type ViolationRecord = z.infer<typeof ViolationRecordSchema>;
