import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/**
 * The contract of results.json, written once: the report writer validates against it before it
 * writes, its types are what the harness builds, and `pnpm --dir compare schema` exports it as JSON
 * Schema beside this file (results.schema.json, checked in tests to be up to date) for anyone who
 * reads the file without TypeScript. A change that breaks a reader bumps SCHEMA_VERSION.
 *
 * Its rows are the suites' own: each suite brings the schema of its rows (crash-schema.ts,
 * production-schema.ts, granularity-schema.ts, window-schema.ts), told apart by `suite`, and the
 * contract is the suites' row schemas under one envelope (`resultsSchema`).
 */
export const SCHEMA_VERSION = 6;

/** A zod enum that keeps the literal types of a readonly list. */
export const oneOf = <T extends string>(values: readonly T[]) => z.enum(values as unknown as [T, ...T[]]);

/** The kinds of operation the world's ledger counts. */
export const KINDS = ['web', 'model', 'tracker', 'mail'] as const;

/** What every row has, whatever suite made it: the suite's name, and its status (`error`: it could not run). */
export interface Row {
  suite: string;
  status: string;
}

/** A suite's row schema: an object whose `suite` is the suite's name (a literal, told apart by it). */
export type RowSchema = z.ZodType<Row> & z.core.$ZodTypeDiscriminable;

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

/** results.json with the rows of these suites (each suite's row schema, in the order given). */
export function resultsSchema(rowSchemas: readonly RowSchema[]) {
  return z
    .object({
      $schema: z.string().optional(),
      schemaVersion: z.literal(SCHEMA_VERSION),
      rows: z.array(z.discriminatedUnion('suite', rowSchemas as [RowSchema, ...RowSchema[]])),
      meta: ResultsMetaSchema,
    })
    .describe(
      'results.json of pnpm compare: what re-executed when a worker died, per runtime, and the production hazards',
    );
}

export type ResultsMeta = z.infer<typeof ResultsMetaSchema>;
export interface Results {
  $schema?: string | undefined;
  schemaVersion: typeof SCHEMA_VERSION;
  rows: Row[];
  meta: ResultsMeta;
}

/** Where the exported JSON Schema is committed: beside this file. */
export const RESULTS_SCHEMA_FILE = fileURLToPath(new URL('./results.schema.json', import.meta.url));

/** The JSON Schema of results.json (draft 2020-12), as committed in results.schema.json for the shipped suites. */
export function resultsJsonSchema(rowSchemas: readonly RowSchema[]): Record<string, unknown> {
  return { $id: 'results.schema.json', ...z.toJSONSchema(resultsSchema(rowSchemas), { target: 'draft-2020-12' }) };
}

export function resultsJsonSchemaText(rowSchemas: readonly RowSchema[]): string {
  return `${JSON.stringify(resultsJsonSchema(rowSchemas), null, 2)}\n`;
}

/** Throws one readable line naming the first field that breaks the contract. */
export function validateResults(results: unknown, rowSchemas: readonly RowSchema[]): Results {
  const parsed = resultsSchema(rowSchemas).safeParse(results);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`results.json would break its schema at ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}
