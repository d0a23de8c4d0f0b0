import type pg from 'pg';
import { backoffMs, givesUp, TransientError, type RetryRule } from '@vendor-review/pipeline';
import { isConnectionLoss } from './connection-loss.ts';

/**
 * The step's own errors, counted where they outlive the worker (the hardened retry rule, domain
 * retry-rule.ts). A runtime's attempt number counts lost machines too (Temporal: a heartbeat
 * timeout is an attempt) or forgets errors with the process (LangGraph's retry loop is in-process):
 * a row per (run, step) counts only what the step itself raised. Each runtime creates the table in
 * a numbered migration, under its own name, like the outbox.
 *
 * The count is written after the error and before the step is tried again. A worker that dies
 * between the two loses that one count: the run then dead-letters one error later, never earlier.
 */
export function stepErrorsTableSql(table: string): string {
  return `
CREATE TABLE ${table} (
  run_key    TEXT NOT NULL,
  step_key   TEXT NOT NULL,
  errors     INTEGER NOT NULL,
  last_error TEXT NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (run_key, step_key)
);
`;
}

type Queryable = Pick<pg.ClientBase, 'query'>;

export interface StepErrors {
  /** Counts one more own error of this step and returns the count so far (1 for the first). */
  record(db: Queryable, o: { runKey: string; stepKey: string; error: string }): Promise<number>;
  /** The count so far (0 when the step has raised none). */
  count(db: Queryable, o: { runKey: string; stepKey: string }): Promise<number>;
}

export function createStepErrors(table: string): StepErrors {
  return {
    async record(db, { runKey, stepKey, error }) {
      const { rows } = await db.query<{ errors: number }>(
        `INSERT INTO ${table} (run_key, step_key, errors, last_error) VALUES ($1, $2, 1, $3)
         ON CONFLICT (run_key, step_key) DO UPDATE SET errors = ${table}.errors + 1, last_error = $3, updated_at = now()
         RETURNING errors`,
        [runKey, stepKey, error.slice(0, 500)],
      );
      return rows[0]!.errors;
    },
    async count(db, { runKey, stepKey }) {
      const { rows } = await db.query<{ errors: number }>(
        `SELECT errors FROM ${table} WHERE run_key = $1 AND step_key = $2`,
        [runKey, stepKey],
      );
      return rows[0]?.errors ?? 0;
    },
  };
}

/**
 * The rule's retries inside one durable step, for a runtime that records a step only once it
 * returns (DBOS, Restate): the step's own errors are counted where they outlive the worker, and the
 * step gives up at the rule's cap. Our store losing its connection is transient, like a dropped
 * HTTP call; while the count cannot be written the step waits the first backoff and tries again,
 * uncounted (the count only ever runs late, never early).
 */
export async function retryOwnErrors<R>(o: {
  rule: RetryRule;
  call: () => Promise<R>;
  /** Counts one more own error durably; resolves to the count so far. */
  count: (error: string) => Promise<number>;
  /** What the step throws once the rule gives up, for the runtime to end it as it ends a step. */
  gaveUp: (attempts: number, error: string) => Error;
}): Promise<R> {
  for (;;) {
    try {
      return await o.call();
    } catch (thrown) {
      const err =
        isConnectionLoss(thrown) && !(thrown instanceof TransientError)
          ? new TransientError(`store unreachable: ${(thrown as Error).message}`, 'store-connection-lost')
          : thrown;
      const error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      const n = await o.count(error).catch((e: unknown) => {
        if (isConnectionLoss(e)) return null;
        throw e;
      });
      if (n !== null && givesUp(o.rule, err, n)) throw o.gaveUp(n, error);
      await new Promise((r) => setTimeout(r, backoffMs(o.rule, n ?? 1)));
    }
  }
}
