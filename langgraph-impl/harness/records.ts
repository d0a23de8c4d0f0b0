import type { CompletionFact, ProvenanceFact, RuntimeRecords } from '@vendor-review/conformance';
import { withConnection } from '@vendor-review/worker-io';
import { LG_OUTBOX } from '../src/outbox.ts';
import { SELECT_COMPLETIONS, SELECT_PROVENANCE_OF_RUNS } from './sql.ts';

const epochMs = (t: Date | string | null) => (t ? new Date(t).getTime() : null);
const token = (t: string | number | null) => (t === null ? null : Number(t));

/** What a checker may read of LangGraph's tables: the outbox, who wrote each checkpoint, how each run was left. */
export function langGraphRecords(databaseUrl: string): RuntimeRecords {
  return {
    outbox: (runIds) => withConnection(databaseUrl, (db) => LG_OUTBOX.forRuns(db, runIds)),
    provenance: (runIds) =>
      withConnection(databaseUrl, async (db) => {
        const out = new Map<string, ProvenanceFact[]>();
        for (const r of (await db.query(SELECT_PROVENANCE_OF_RUNS, [runIds])).rows) {
          const fact: ProvenanceFact = {
            checkpointId: r.checkpoint_id,
            writer: r.writer,
            token: token(r.fencing_token),
            writtenAt: epochMs(r.written_at)!,
          };
          out.set(r.run_id, [...(out.get(r.run_id) ?? []), fact]);
        }
        // A run with no row has had no checkpoint written: an empty list, not an unknown.
        for (const id of runIds) if (!out.has(id)) out.set(id, []);
        return out;
      }),
    completion: (runIds) =>
      withConnection(databaseUrl, async (db) => {
        const out = new Map<string, CompletionFact>();
        for (const r of (await db.query(SELECT_COMPLETIONS, [runIds])).rows)
          out.set(r.run_id, {
            status: r.status,
            by: r.last_worker,
            leaseOwner: r.owner,
            leaseToken: token(r.fencing_token),
            leaseClaimedAt: epochMs(r.claimed_at),
            finishedAt: epochMs(r.finished_at),
          });
        return out;
      }),
  };
}
