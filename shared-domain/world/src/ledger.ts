import { z } from 'zod';
import { FAULT_KINDS } from './faults.ts';

/**
 * One request the world served (or refused, or lost): the ground truth a harness reads. The schema
 * is the contract of `GET /__ledger`, parsed by the world's own client on the other side.
 * Outcomes: ok: served; deduplicated: an Idempotency-Key replay, nothing new happened; fault:
 * injected; aborted: the client went away before the answer (a model call is still billed its
 * prompt); error: a genuine non-2xx answer the world gave on its own (unknown page, bad body);
 * conflict: an Idempotency-Key used before with a different body, refused with 422, nothing done.
 */
export const LedgerEntrySchema = z.object({
  /** Monotonic for the life of the world, never reused, also across ledger resets. */
  seq: z.number().int(),
  /** Epoch ms when the request arrived. */
  at: z.number(),
  runId: z.string().nullable(),
  step: z.string().nullable(),
  attempt: z.number().int().nullable(),
  worker: z.string().nullable(),
  idempotencyKey: z.string().nullable(),
  kind: z.enum(['web', 'model', 'tracker', 'mail', 'approver']),
  method: z.string(),
  path: z.string(),
  /** The logical operation, independent of attempt: the same opKey twice means the work was repeated. */
  opKey: z.string(),
  /** The same operation in words that do not name the run (a page path, a requirement, "review mail"). */
  subject: z.string(),
  /** HTTP status sent, 0 when the connection was dropped or the client left first. */
  status: z.number().int(),
  outcome: z.enum(['ok', 'deduplicated', 'fault', 'aborted', 'error', 'conflict']),
  fault: z.enum(FAULT_KINDS).optional(),
  model: z.string().optional(),
  promptTokens: z.number(),
  completionTokens: z.number(),
  /** Dollars, or null when the model's price is unknown (a provider model missing from the price table). */
  costUsd: z.number().nullable(),
  durationMs: z.number(),
});

export type LedgerEntry = z.infer<typeof LedgerEntrySchema>;
export type LedgerKind = LedgerEntry['kind'];
export type LedgerOutcome = LedgerEntry['outcome'];

export interface LedgerFilter {
  runId?: string;
  kind?: LedgerKind;
}

export class Ledger {
  #entries: LedgerEntry[] = [];
  /** The same entries by run: a harness asks for one run's many times a second, over a ledger of thousands. */
  #byRun = new Map<string | null, LedgerEntry[]>();
  #seq = 0;

  record(entry: Omit<LedgerEntry, 'seq'>): LedgerEntry {
    const full = { seq: ++this.#seq, ...entry };
    this.#entries.push(full);
    const run = this.#byRun.get(full.runId);
    if (run) run.push(full);
    else this.#byRun.set(full.runId, [full]);
    return full;
  }

  entries(filter: LedgerFilter = {}): LedgerEntry[] {
    const from = filter.runId === undefined ? this.#entries : (this.#byRun.get(filter.runId) ?? []);
    return from.filter((e) => filter.kind === undefined || e.kind === filter.kind);
  }

  reset(): void {
    this.#entries = [];
    this.#byRun = new Map();
  }
}
