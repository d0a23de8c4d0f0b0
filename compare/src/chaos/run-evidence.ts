import type { RunView } from '@vendor-review/pipeline';
import type {
  DurableRecord,
  RunHandle,
  RuntimeAdapter,
  CompletionFact,
  OutboxFact,
  ProvenanceFact,
  RuntimeRecords,
} from '@vendor-review/conformance';
import type { DeliveryView, LedgerEntry, WorldClient } from '@vendor-review/world';

/**
 * What the outside says about a run once the campaign has quiesced: the world (its ledger, the
 * mails the mailer stored, the notes the tracker stored), the runtime's durable record through its
 * adapter, and what its module's records say of the rows that guard the effects (the outbox, and
 * where the runtime keeps them, who wrote each durable record and how the run's lease was left).
 * Nothing here comes from a worker's output, and no table is read here: each runtime reads its own.
 *
 * Accepted effects are counted from the receivers' stores, not from ledger outcomes: a mail the
 * mailer stored while its sender was frozen and gone by the time the answer came is in the ledger
 * as `aborted`, yet the customer has it.
 */
export type { CompletionFact, OutboxFact, ProvenanceFact };

export interface RunEvidence {
  ledger: LedgerEntry[];
  mails: DeliveryView[];
  notes: DeliveryView[];
  durable: DurableRecord | null;
  /** The run as the runtime shows it at the end (status and final state). */
  final: RunView | null;
  /** Why the durable record or the final view could not be read, if it could not. */
  unreadable: string | null;
  outbox: OutboxFact[];
  /** Who wrote each durable record, in the order written; null where the runtime's records do not say. */
  provenance: ProvenanceFact[] | null;
  completion: CompletionFact | null;
}

export interface EvidenceTarget {
  runtime: string;
  adapter: RuntimeAdapter;
  records: RuntimeRecords;
  handle: RunHandle;
}

function group<T>(items: readonly T[], key: (t: T) => string | null): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const i of items) {
    const k = key(i);
    if (k === null) continue;
    const list = m.get(k);
    if (list) list.push(i);
    else m.set(k, [i]);
  }
  return m;
}

/** The targets by runtime, each group with its runtime's records and its runs' ids. */
const byRuntime = (targets: readonly EvidenceTarget[]) =>
  [...group(targets, (t) => t.runtime).values()].map((ts) => ({
    records: ts[0]!.records,
    ids: ts.map((t) => t.handle.runId),
  }));

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

/** Every run's evidence; `onRead` is called once per run read (progress). */
export async function collectEvidence(o: {
  world: WorldClient;
  targets: readonly EvidenceTarget[];
  concurrency?: number;
  onRead?: () => void;
}): Promise<Map<string, RunEvidence>> {
  const [ledger, mails, notes] = await Promise.all([o.world.ledger(), o.world.outbox(), o.world.notes()]);
  const ledgerOf = group(ledger, (e) => e.runId);
  const mailsOf = group(mails, (d) => d.runId);
  const notesOf = group(notes, (d) => d.runId);

  const outboxOf = new Map<string, OutboxFact[]>();
  const provenanceOf = new Map<string, ProvenanceFact[]>();
  const completionOf = new Map<string, CompletionFact>();
  /** Runs whose runtime's records say who wrote what. */
  const withProvenance = new Set<string>();
  for (const { records, ids } of byRuntime(o.targets)) {
    const [outbox, provenance, completion] = await Promise.all([
      records.outbox(ids),
      records.provenance?.(ids),
      records.completion?.(ids),
    ]);
    for (const [id, rows] of outbox) outboxOf.set(id, rows);
    for (const [id, rows] of provenance ?? []) provenanceOf.set(id, rows);
    for (const [id, fact] of completion ?? []) completionOf.set(id, fact);
    if (provenance) for (const id of ids) withProvenance.add(id);
  }

  const read = await mapLimit(o.targets, o.concurrency ?? 4, async (t) => {
    const runId = t.handle.runId;
    const problems: string[] = [];
    const [durable, final] = await Promise.all([
      t.adapter.durableRecord(t.handle).catch((err: unknown) => {
        problems.push(`durable record: ${(err as Error).message}`);
        return null;
      }),
      t.adapter.inspect(t.handle).catch((err: unknown) => {
        problems.push(`final view: ${(err as Error).message}`);
        return null;
      }),
    ]);
    o.onRead?.();
    const evidence: RunEvidence = {
      ledger: ledgerOf.get(runId) ?? [],
      mails: mailsOf.get(runId) ?? [],
      notes: notesOf.get(runId) ?? [],
      durable,
      final,
      unreadable: problems.length ? problems.join('; ').slice(0, 400) : null,
      outbox: outboxOf.get(runId) ?? [],
      provenance: withProvenance.has(runId) ? (provenanceOf.get(runId) ?? []) : null,
      completion: completionOf.get(runId) ?? null,
    };
    return [runId, evidence] as const;
  });
  return new Map(read);
}

/** Outbox rows of these runs still waiting to be sent (the campaign waits for none before it judges). */
export async function unsentOutboxRows(targets: readonly EvidenceTarget[]): Promise<number> {
  let n = 0;
  for (const { records, ids } of byRuntime(targets))
    for (const rows of (await records.outbox(ids)).values()) n += rows.filter((r) => r.status === 'pending').length;
  return n;
}
