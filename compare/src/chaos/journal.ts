/**
 * What happened during a campaign, in order, as the harness did it or saw it from outside a worker
 * (a signal it sent, a process that exited, the CRASHPOINT line a worker wrote before it died). The
 * checker never reads it to decide; a violation quotes the part of it around its run, so a reader
 * sees the schedule that produced it.
 */
export type JournalKind =
  | 'strike'
  | 'kill'
  | 'pause'
  | 'resume'
  | 'partition'
  | 'heal'
  | 'crash-point'
  | 'worker-start'
  | 'worker-exit'
  | 'takeover'
  | 'give-up'
  | 'approval'
  | 'world-fault'
  | 'server-restart'
  | 'note';

export interface JournalEntry {
  /** Epoch ms. */
  at: number;
  kind: JournalKind;
  /** The pool it concerns ("langgraph/hardened"), if one. */
  pool?: string;
  worker?: string;
  pid?: number | null;
  runId?: string;
  /** The strike that caused it, when one did. */
  strike?: number;
  detail: string;
}

export class Journal {
  readonly entries: JournalEntry[] = [];

  /** `onEntry` sees every entry as it is added (live progress). */
  constructor(private readonly onEntry?: (e: JournalEntry) => void) {}

  add(e: Omit<JournalEntry, 'at'> & { at?: number }): JournalEntry {
    const entry = { ...e, at: e.at ?? Date.now() };
    this.entries.push(entry);
    this.onEntry?.(entry);
    return entry;
  }

  /** Entries between `from` and `to` (epoch ms) that concern this pool (or every pool), or name this run. */
  around(o: { from: number; to: number; pool: string; runId: string; workers?: ReadonlySet<string> }): JournalEntry[] {
    return this.entries.filter(
      (e) =>
        e.runId === o.runId ||
        (e.at >= o.from &&
          e.at <= o.to &&
          (e.pool === undefined || e.pool === o.pool) &&
          (e.runId === undefined || e.runId === o.runId) &&
          (o.workers === undefined || e.worker === undefined || o.workers.has(e.worker))),
    );
  }
}
