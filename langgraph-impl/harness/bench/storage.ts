import type { Ports } from '@vendor-review/pipeline';
import type { StorageBench } from '@vendor-review/conformance';
import type pg from 'pg';
import { TABLES } from '../../src/sql.ts';
import { reviewRun, type LangGraphMode } from './per-step.ts';

/**
 * What one thread keeps in PostgreSQL, per table: rows and bytes as stored (pg_column_size of
 * every column: after TOAST compression, without page and index overhead).
 */
export interface ThreadStorage {
  table: string;
  rows: number;
  bytes: number;
}

const THREAD_TABLES = ['checkpoints', 'checkpoint_blobs', 'checkpoint_writes', TABLES.provenance] as const;

export async function threadStorage(pool: pg.Pool, threadId: string): Promise<ThreadStorage[]> {
  const out: ThreadStorage[] = [];
  for (const table of THREAD_TABLES) {
    const columns = (
      await pool.query<{ column_name: string }>(
        'SELECT column_name FROM information_schema.columns WHERE table_name = $1 AND table_schema = current_schema()',
        [table],
      )
    ).rows.map((r) => `coalesce(pg_column_size(t."${r.column_name.replace(/"/g, '""')}"), 0)`);
    const { rows } = await pool.query<{ rows: string; bytes: string | null }>(
      `SELECT count(*) AS rows, sum(${columns.join(' + ')}) AS bytes FROM ${table} t WHERE thread_id = $1`,
      [threadId],
    );
    out.push({ table, rows: Number(rows[0]?.rows ?? 0), bytes: Number(rows[0]?.bytes ?? 0) });
  }
  return out;
}

/** The bench's storage section for a LangGraph API: one finished run per mode, and what its thread keeps. */
export function checkpointStorage(
  o: { pool: pg.Pool; ports: Ports },
  modes: Record<string, LangGraphMode>,
): StorageBench {
  return {
    modes: Object.keys(modes),
    how: `rows of checkpoints, checkpoint_blobs, checkpoint_writes and ${TABLES.provenance}, bytes as stored (pg_column_size)`,
    async measure(mode, request) {
      const run = await reviewRun(o, request, modes[mode]!);
      const tables = await threadStorage(o.pool, run.id);
      return {
        ok: run.ok,
        bytes: tables.reduce((s, t) => s + t.bytes, 0),
        rows: tables.reduce((s, t) => s + t.rows, 0),
        tables,
      };
    },
  };
}
