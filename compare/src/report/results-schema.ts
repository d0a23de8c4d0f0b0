import { DURABILITIES, VARIANTS } from '@vendor-review/pipeline';
import { CRASH_POINT_NAMES } from '@vendor-review/instrument';
import { type HazardId, type HazardSection } from '@vendor-review/conformance';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { GranularityRowSchema } from './granularity-schema.ts';
import { WindowRowSchema } from './window-schema.ts';

/**
 * The contract of results.json, written once: the report writer validates against it before it
 * writes, its types are what the harness builds, and `pnpm --dir compare schema` exports it as JSON
 * Schema beside this file (results.schema.json, checked in tests to be up to date) for anyone who
 * reads the file without TypeScript. A change that breaks a reader bumps SCHEMA_VERSION.
 */
export const SCHEMA_VERSION = 4;

/** A zod enum that keeps the literal types of a readonly list. */
const oneOf = <T extends string>(values: readonly T[]) => z.enum(values as unknown as [T, ...T[]]);

const CELL_STATUSES = ['completed', 'stuck', 'failed', 'lost', 'error'] as const;
const KINDS = ['web', 'model', 'tracker', 'mail'] as const;
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
  })
  .describe('one distinct outcome of a cell over its repetitions, with the facts of the first run that had it');

const CrashRowSchema = z
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
  })
  .describe(
    'one cell of the crash suite: a runtime, variant and durability killed at one crash point (or the baseline)',
  );

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

const ProductionRowSchema = z
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

export const RowSchema = z.discriminatedUnion('suite', [
  CrashRowSchema,
  ProductionRowSchema,
  GranularityRowSchema,
  WindowRowSchema,
]);

export const ResultsMetaSchema = z.object({
  versions: z.object({
    runtimes: z
      .record(z.string(), z.record(z.string(), z.string().nullable()))
      .describe(
        'per runtime, the libraries it ran on as installed: { langgraph: { "@langchain/langgraph": "1.7.3" } }',
      ),
    servers: z
      .record(z.string(), z.string().nullable())
      .describe(
        'each runtime server by its label, with the version it reports, also for your own: { "Temporal server": "1.32.0" }',
      ),
    node: z.string(),
  }),
  infrastructure: z.object({
    world: z.string(),
    model: z.string().describe('the simulated model, or the --model-upstream provider and model with its price'),
    postgres: z.string(),
    servers: z
      .array(
        z.object({
          title: z.string(),
          description: z.string().describe('as the server describes itself: where it is, whose it is, its version'),
          ui: z.string().nullable().describe('the web UI where its runs are linked, when they outlive the harness'),
        }),
      )
      .describe('the servers the runtimes brought, each as its runtime module started or reached it'),
    restartHazards: z
      .string()
      .nullable()
      .describe('the servers of their own that the hazards restarting a server ran on, or null (none ran)'),
    built: z.array(z.string()),
  }),
  environment: z.object({
    inForce: z.array(z.string()).describe('outside settings the harness used, NAME=value with secrets masked'),
    notPassedToWorkers: z
      .array(z.string())
      .describe('variables set around the harness that workers deliberately did not get'),
  }),
  runtimes: z
    .array(z.object({ name: z.string(), label: z.string(), title: z.string(), colour: z.string() }))
    .describe('the runtimes in table order, as their runtime modules name them'),
  wallTimeMs: z.number(),
  startedAt: z.string(),
  machine: z.object({ cpus: z.number().int(), platform: z.string() }),
  options: z.record(z.string(), z.unknown()),
  cells: z.number().int(),
  notRun: z.number().int(),
});

export const ResultsSchema = z
  .object({
    $schema: z.string().optional(),
    schemaVersion: z.literal(SCHEMA_VERSION),
    rows: z.array(RowSchema),
    meta: ResultsMetaSchema,
  })
  .describe(
    'results.json of pnpm compare: what re-executed when a worker died, per runtime, and the production hazards',
  );

export type ResultRow = z.infer<typeof CrashRowSchema>;
export type ProductionRow = z.infer<typeof ProductionRowSchema>;
export type Row = z.infer<typeof RowSchema>;
export type Outcome = z.infer<typeof OutcomeSchema>;
export type HazardOutcome = z.infer<typeof HazardOutcomeSchema>;
export type ResultsMeta = z.infer<typeof ResultsMetaSchema>;
export type Results = z.infer<typeof ResultsSchema>;

/** Where the exported JSON Schema is committed: beside this file. */
export const RESULTS_SCHEMA_FILE = fileURLToPath(new URL('./results.schema.json', import.meta.url));

/** The JSON Schema of results.json (draft 2020-12), as committed in results.schema.json. */
export function resultsJsonSchema(): Record<string, unknown> {
  return { $id: 'results.schema.json', ...z.toJSONSchema(ResultsSchema, { target: 'draft-2020-12' }) };
}

export function resultsJsonSchemaText(): string {
  return `${JSON.stringify(resultsJsonSchema(), null, 2)}\n`;
}

/** Throws one readable line naming the first field that breaks the contract. */
export function validateResults(results: unknown): Results {
  const parsed = ResultsSchema.safeParse(results);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`results.json would break its schema at ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}
