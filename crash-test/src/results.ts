import { execFileSync } from 'node:child_process';
import { z } from 'zod';

/**
 * results.json: what a crash test found, with what it ran on beside it. The JSON Schema written
 * next to it is made from this one definition.
 */
const Repeat = z.object({
  call: z.string(),
  extra: z.number().int().positive(),
  withKey: z.boolean(),
  extraInputTokens: z.number().int().nonnegative(),
  extraOutputTokens: z.number().int().nonnegative(),
  extraCostUsd: z.number().nullable(),
});

/** Where worker A was killed, as the plan named it: around the nth call to `call`, or as the nth `step` began. */
const Point = z.discriminatedUnion('at', [
  z.object({ at: z.enum(['after-call', 'in-flight']), call: z.string(), occurrence: z.number().int().positive() }),
  z.object({ at: z.literal('step'), step: z.string(), occurrence: z.number().int().positive() }),
]);

export const FindingSchema = z.object({
  id: z.string(),
  label: z.string(),
  point: Point,
  mode: z.enum(['replay', 'live']),
  reached: z.boolean(),
  resumed: z.boolean(),
  stuck: z.string().nullable(),
  again: z.array(Repeat),
  sameFinal: z.boolean().nullable(),
  resumeMs: z.number().nullable(),
  stepsAgain: z.array(z.string()),
  runtimeDid: z.string(),
  bodyDiffers: z.array(z.string()),
  refused: z.array(z.string()),
  advice: z.array(z.string()),
  /** For the report's timeline: each worker's calls and steps, ms from the cell's start. */
  timeline: z.array(
    z.object({
      worker: z.enum(['A', 'B']),
      t: z.number(),
      what: z.string(),
      kind: z.enum(['call', 'step', 'crash', 'done']),
    }),
  ),
  profile: z.record(z.string(), z.number()),
});

const RecordedCallSummary = z.object({
  call: z.string(),
  occurrence: z.number().int(),
  status: z.number().int().nullable(),
  idempotencyKey: z.boolean(),
  bodyHash: z.string(),
  /** Request headers, secrets redacted. */
  headers: z.record(z.string(), z.string()),
  inputTokens: z.number().int().nullable(),
  outputTokens: z.number().int().nullable(),
});

export const ResultsSchema = z.object({
  tool: z.literal('crash-test'),
  module: z.string(),
  runtime: z.enum(['langgraph', 'functional', 'temporal']),
  meta: z.object({
    startedAt: z.string(),
    node: z.string(),
    sdk: z.record(z.string(), z.string().nullable()),
    /** As compare's bench describes a machine (bench/machine.ts): its cores, memory, platform and load. */
    machine: z.object({ hostname: z.string(), cpus: z.number().int(), cpuModel: z.string() }).loose(),
    /** This tool's checkout and the app's repository, where each is a git checkout. */
    commit: z.object({ tool: z.string().nullable(), app: z.string().nullable() }),
    infra: z.array(z.string()),
    notes: z.array(z.string()),
    unseen: z.string(),
    stop: z.enum(['kill', 'term']),
  }),
  baseline: z.object({
    calls: z.array(RecordedCallSummary),
    steps: z.array(z.string()),
    final: z.unknown(),
    ms: z.number(),
  }),
  findings: z.array(FindingSchema),
});
export type CrashTestResults = z.infer<typeof ResultsSchema>;
export type FindingRow = z.infer<typeof FindingSchema>;

export const UNSEEN =
  'seen: outbound HTTP through fetch (undici) and node:http(s). Not seen: database drivers, gRPC, raw sockets, child processes: a call made that way is neither recorded, replayed nor counted.';

export function gitCommit(dir: string): string | null {
  try {
    return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: dir, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return null;
  }
}

export const resultsJsonSchema = (): string => `${JSON.stringify(z.toJSONSchema(ResultsSchema), null, 2)}\n`;
