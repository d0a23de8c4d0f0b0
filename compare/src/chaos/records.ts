import type { DurableRecord, RunHandle, RunView, RuntimeAdapter } from '@vendor-review/domain';
import type { DeliveryView, LedgerEntry, WorldClient } from '@vendor-review/domain/world';
import pg from 'pg';

/**
 * What the outside says about a run once the campaign has quiesced: the world (its ledger, the
 * mails the mailer stored, the notes the tracker stored), the runtime's durable record through its
 * adapter, and the rows in PostgreSQL that guard the effects (the outbox, and for LangGraph who
 * wrote each checkpoint and the run's final status). Nothing here comes from a worker's output.
 *
 * Accepted effects are counted from the receivers' stores, not from ledger outcomes: a mail the
 * mailer stored while its sender was frozen and gone by the time the answer came is in the ledger
 * as `aborted`, yet the customer has it.
 */
export interface OutboxFact {
  status: 'pending' | 'sent' | 'dead';
  attempts: number;
  lastError: string | null;
}

export interface ProvenanceFact {
  checkpointId: string;
  writer: string | null;
  token: number | null;
  /** Epoch ms of the transaction that wrote it. */
  writtenAt: number;
}

export interface CompletionFact {
  status: string;
  /** The worker that last wrote the run's status. */
  by: string | null;
  /** The run's lease as it was left: its last owner (`name#pid`), fencing token, and when it was claimed. */
  leaseOwner: string | null;
  leaseToken: number | null;
  leaseClaimedAt: number | null;
  /** When the final status was written (epoch ms). */
  finishedAt: number | null;
}

export interface RunRecords {
  ledger: LedgerEntry[];
  mails: DeliveryView[];
  notes: DeliveryView[];
  durable: DurableRecord | null;
  /** The run as the runtime shows it at the end (status and final state). */
  final: RunView | null;
  /** Why the durable record or the final view could not be read, if it could not. */
  unreadable: string | null;
  outbox: OutboxFact[];
  /** LangGraph: lg_checkpoint_provenance, in the order the rows were written. */
  provenance: ProvenanceFact[] | null;
  completion: CompletionFact | null;
}

export interface RecordTarget {
  runtime: string;
  adapter: RuntimeAdapter;
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

const OUTBOX_SQL = (table: string) =>
  `SELECT run_id, status, attempts, last_error FROM ${table} WHERE run_id = ANY($1::text[]) ORDER BY id`;

const LG_COMPLETION_SQL = `
SELECT r.run_id, r.status, r.last_worker, r.finished_at, l.owner, l.fencing_token, l.claimed_at
FROM lg_runs r LEFT JOIN lg_leases l ON l.thread_id = r.thread_id
WHERE r.run_id = ANY($1::text[])`;

const LG_PROVENANCE_SQL = `
SELECT r.run_id, p.checkpoint_id, p.writer, p.fencing_token, p.written_at
FROM lg_runs r JOIN lg_checkpoint_provenance p ON p.thread_id = r.thread_id AND p.checkpoint_ns = ''
WHERE r.run_id = ANY($1::text[])
ORDER BY p.written_at, p.checkpoint_id`;

const OUTBOX_TABLES: Record<string, string> = { langgraph: 'lg_outbox', temporal: 'temporal_outbox' };

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

/** Every run's records; `onRead` is called once per run read (progress). */
export async function collectRecords(o: {
  world: WorldClient;
  databaseUrl: string;
  targets: readonly RecordTarget[];
  concurrency?: number;
  onRead?: () => void;
}): Promise<Map<string, RunRecords>> {
  const [ledger, mails, notes] = await Promise.all([o.world.ledger(), o.world.outbox(), o.world.notes()]);
  const ledgerOf = group(ledger, (e) => e.runId);
  const mailsOf = group(mails, (d) => d.runId);
  const notesOf = group(notes, (d) => d.runId);

  const client = new pg.Client({ connectionString: o.databaseUrl });
  await client.connect();
  const outboxOf = new Map<string, OutboxFact[]>();
  const provenanceOf = new Map<string, ProvenanceFact[]>();
  const completionOf = new Map<string, CompletionFact>();
  try {
    for (const [runtime, targets] of group(o.targets, (t) => t.runtime)) {
      const ids = targets.map((t) => t.handle.runId);
      const table = OUTBOX_TABLES[runtime];
      if (table)
        for (const r of (await client.query(OUTBOX_SQL(table), [ids])).rows)
          outboxOf.set(r.run_id, [
            ...(outboxOf.get(r.run_id) ?? []),
            { status: r.status, attempts: r.attempts, lastError: r.last_error },
          ]);
      if (runtime !== 'langgraph') continue;
      for (const r of (await client.query(LG_COMPLETION_SQL, [ids])).rows)
        completionOf.set(r.run_id, {
          status: r.status,
          by: r.last_worker,
          leaseOwner: r.owner,
          leaseToken: r.fencing_token === null ? null : Number(r.fencing_token),
          leaseClaimedAt: r.claimed_at ? new Date(r.claimed_at).getTime() : null,
          finishedAt: r.finished_at ? new Date(r.finished_at).getTime() : null,
        });
      for (const r of (await client.query(LG_PROVENANCE_SQL, [ids])).rows)
        provenanceOf.set(r.run_id, [
          ...(provenanceOf.get(r.run_id) ?? []),
          {
            checkpointId: r.checkpoint_id,
            writer: r.writer,
            token: r.fencing_token === null ? null : Number(r.fencing_token),
            writtenAt: new Date(r.written_at).getTime(),
          },
        ]);
    }
  } finally {
    await client.end().catch(() => undefined);
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
    const records: RunRecords = {
      ledger: ledgerOf.get(runId) ?? [],
      mails: mailsOf.get(runId) ?? [],
      notes: notesOf.get(runId) ?? [],
      durable,
      final,
      unreadable: problems.length ? problems.join('; ').slice(0, 400) : null,
      outbox: outboxOf.get(runId) ?? [],
      provenance: t.runtime === 'langgraph' ? (provenanceOf.get(runId) ?? []) : null,
      completion: completionOf.get(runId) ?? null,
    };
    return [runId, records] as const;
  });
  return new Map(read);
}

/** Outbox rows of these runs still waiting to be sent (the campaign waits for none before it judges). */
export async function unsentOutboxRows(databaseUrl: string, targets: readonly RecordTarget[]): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', () => undefined);
  await client.connect();
  try {
    let n = 0;
    for (const [runtime, ts] of group(targets, (t) => t.runtime)) {
      const table = OUTBOX_TABLES[runtime];
      if (!table) continue;
      const ids = ts.map((t) => t.handle.runId);
      n += Number(
        (
          await client.query(
            `SELECT count(*)::int AS n FROM ${table} WHERE status = 'pending' AND run_id = ANY($1::text[])`,
            [ids],
          )
        ).rows[0]?.n ?? 0,
      );
    }
    return n;
  } finally {
    await client.end().catch(() => undefined);
  }
}
