import type { FaultKind } from './faults.ts';

/** One request the world served (or refused, or lost): the ground truth the harness reads. */
export type LedgerKind = 'web' | 'model' | 'tracker' | 'mail';
/** ok: served; deduplicated: an Idempotency-Key replay, nothing new happened; fault: injected;
 * aborted: the client went away before the answer (a model call is still billed its prompt);
 * error: a genuine non-2xx answer the world gave on its own (unknown page, bad body). */
export type LedgerOutcome = 'ok' | 'deduplicated' | 'fault' | 'aborted' | 'error';

export interface LedgerEntry {
  /** Monotonic for the life of the world, never reused, also across ledger resets. */
  seq: number;
  /** Epoch ms when the request arrived. */
  at: number;
  runId: string | null;
  step: string | null;
  attempt: number | null;
  worker: string | null;
  idempotencyKey: string | null;
  kind: LedgerKind;
  method: string;
  path: string;
  /** The logical operation, independent of attempt: the same opKey twice means the work was repeated. */
  opKey: string;
  /** HTTP status sent, 0 when the connection was dropped or the client left first. */
  status: number;
  outcome: LedgerOutcome;
  fault?: FaultKind;
  model?: string;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  durationMs: number;
}

export interface LedgerFilter {
  runId?: string;
  kind?: LedgerKind;
}

export class Ledger {
  #entries: LedgerEntry[] = [];
  #seq = 0;

  record(entry: Omit<LedgerEntry, 'seq'>): LedgerEntry {
    const full = { seq: ++this.#seq, ...entry };
    this.#entries.push(full);
    return full;
  }

  entries(filter: LedgerFilter = {}): LedgerEntry[] {
    return this.#entries.filter(
      (e) =>
        (filter.runId === undefined || e.runId === filter.runId) &&
        (filter.kind === undefined || e.kind === filter.kind),
    );
  }

  reset(): void {
    this.#entries = [];
  }
}
