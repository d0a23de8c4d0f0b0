import { z } from 'zod';

/**
 * The world's ledger as the harness reads it: the only account of what executed that does not
 * come from a worker. Parsed with zod because it crosses a process boundary; `at` is accepted as
 * epoch milliseconds or an ISO string and always handed on as epoch milliseconds.
 */
const epochMs = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const n = typeof v === 'number' ? v : /^\d+$/.test(v) ? Number(v) : Date.parse(v);
  if (!Number.isFinite(n)) {
    ctx.addIssue({ code: 'custom', message: `not a time: ${String(v)}` });
    return z.NEVER;
  }
  return n;
});

export const LedgerEntrySchema = z.object({
  seq: z.number(),
  at: epochMs,
  runId: z.string().nullable().default(null),
  step: z.string().nullable().default(null),
  attempt: z.number().nullable().default(null),
  worker: z.string().nullable().default(null),
  idempotencyKey: z.string().nullable().default(null),
  kind: z.enum(['web', 'model', 'tracker', 'mail']),
  method: z.string().default('GET'),
  path: z.string().default(''),
  opKey: z.string(),
  status: z.number().default(0),
  outcome: z.enum(['ok', 'deduplicated', 'fault', 'aborted']),
  fault: z.string().nullable().optional(),
  promptTokens: z.number().default(0),
  completionTokens: z.number().default(0),
  costUsd: z.number().default(0),
  durationMs: z.number().default(0),
});

export type LedgerEntry = z.output<typeof LedgerEntrySchema>;

const LedgerResponseSchema = z.object({ entries: z.array(LedgerEntrySchema) });

export function parseLedger(body: unknown): LedgerEntry[] {
  return LedgerResponseSchema.parse(body)
    .entries.slice()
    .sort((a, b) => a.seq - b.seq);
}

export async function fetchLedger(worldUrl: string, runId: string): Promise<LedgerEntry[]> {
  const res = await fetch(`${worldUrl.replace(/\/$/, '')}/__ledger?runId=${encodeURIComponent(runId)}`);
  if (!res.ok) throw new Error(`world ledger answered ${res.status} for run ${runId}`);
  return parseLedger(await res.json()).filter((e) => e.runId === null || e.runId === runId);
}

/** Entries that really ran against the world: injected faults are the harness's own doing. */
export function executed(entries: readonly LedgerEntry[]): LedgerEntry[] {
  return entries.filter((e) => e.outcome !== 'fault');
}
