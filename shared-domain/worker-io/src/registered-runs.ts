import type { Decision, Granularity, ReviewRequestInput, Variant } from '@vendor-review/pipeline';
import type pg from 'pg';

/**
 * The runs a client registered before any worker started one, kept beside a runtime's own records
 * (DBOS's system tables, Restate's journal): a run with no workflow yet is pending, not unknown,
 * and a decision that comes before the runtime can take it waits in the same row. The table is the
 * runtime's own (`<name>_runs`, made by its migrations: run_id, variant, granularity, request,
 * approval); the queries are one.
 */
export interface RegisteredRun {
  runId: string;
  variant: Variant;
  granularity: Granularity;
  request: ReviewRequestInput;
}

export interface RegisteredRuns {
  insert(db: pg.Pool, run: RegisteredRun): Promise<void>;
  load(db: pg.Pool, runId: string): Promise<RegisteredRun | null>;
  /** The first decision wins, as in every runtime. */
  keepDecision(db: pg.Pool, runId: string, d: Decision): Promise<void>;
  keptDecision(db: pg.Pool, runId: string): Promise<Decision | null>;
}

export function registeredRuns(table: string): RegisteredRuns {
  return {
    async insert(db, run) {
      await db.query(`INSERT INTO ${table} (run_id, variant, granularity, request) VALUES ($1, $2, $3, $4)`, [
        run.runId,
        run.variant,
        run.granularity,
        JSON.stringify(run.request),
      ]);
    },
    async load(db, runId) {
      const r = (
        await db.query(`SELECT run_id, variant, granularity, request FROM ${table} WHERE run_id = $1`, [runId])
      ).rows[0];
      return r ? { runId: r.run_id, variant: r.variant, granularity: r.granularity, request: r.request } : null;
    },
    async keepDecision(db, runId, d) {
      await db.query(`UPDATE ${table} SET approval = coalesce(approval, $2) WHERE run_id = $1`, [
        runId,
        JSON.stringify(d),
      ]);
    },
    async keptDecision(db, runId) {
      return (await db.query(`SELECT approval FROM ${table} WHERE run_id = $1`, [runId])).rows[0]?.approval ?? null;
    },
  };
}
