/**
 * What the Restate server records of a run, read from outside the workers through its admin
 * API's SQL introspection (`POST /query`): the invocation, its journal and the phase in its state.
 * All the harness's SQL is here (the endpoint's one query, its pinned deployment, is in src/client.ts,
 * which runs both through one `adminQuery` and checks every name put into them: `sqlName`).
 */
import type { Footprint } from '@vendor-review/conformance';
import { adminQuery, sqlName } from '../src/client.ts';
import { PHASE_KEY } from '../src/workflow.ts';
import { completionIdOf, stepOf } from './durable-record.ts';

export interface InvocationRow {
  id: string;
  status: string;
  completion_result?: string | null;
  completion_failure?: string | null;
  retry_count?: number | null;
  last_failure?: string | null;
  pinned_deployment_id?: string | null;
  last_attempt_deployment_id?: string | null;
  created_at?: string | null;
  modified_at?: string | null;
  completed_at?: string | null;
  /** The phase the workflow last wrote to its state (JSON text), read in the same query. */
  phase?: string | null;
}

export interface JournalRow {
  index: number;
  entry_type: string;
  name?: string | null;
  entry_lite_json?: string | null;
  appended_at?: string | null;
  /** The bytes the server keeps of this entry, as it counts them. */
  raw_length?: number | null;
}

export class RestateJournal {
  constructor(private readonly adminUrl: string) {}

  private query<R>(sql: string): Promise<R[]> {
    return adminQuery<R>({ adminUrl: this.adminUrl }, sql);
  }

  /** The run's workflow invocation (a workflow key runs its `run` handler once) and its phase, or null before it was submitted. */
  async invocation(service: string, key: string): Promise<InvocationRow | null> {
    const rows = await this.query<InvocationRow>(
      `SELECT i.id, i.status, i.completion_result, i.completion_failure, i.retry_count, i.last_failure,
              i.pinned_deployment_id, i.last_attempt_deployment_id, i.created_at, i.modified_at, i.completed_at,
              s.value_utf8 AS phase
       FROM sys_invocation i
       LEFT JOIN state s ON s.service_name = i.target_service_name AND s.service_key = i.target_service_key
                        AND s.key = ${sqlName(PHASE_KEY)}
       WHERE i.target_service_name = ${sqlName(service)} AND i.target_service_key = ${sqlName(key)}
         AND i.target_handler_name = 'run'`,
    );
    return rows[0] ?? null;
  }

  /** How many invocations of the workflow's `run` handler the server holds for this key (a second submit attaches: 1). */
  async runs(service: string, key: string): Promise<number> {
    const rows = await this.query<{ n: number | string }>(
      `SELECT count(*) AS n FROM sys_invocation
       WHERE target_service_name = ${sqlName(service)} AND target_service_key = ${sqlName(key)}
         AND target_handler_name = 'run'`,
    );
    return Number(rows[0]?.n ?? 0);
  }

  async entries(invocationId: string): Promise<JournalRow[]> {
    return this.query<JournalRow>(
      `SELECT index, entry_type, name, entry_lite_json, appended_at, raw_length FROM sys_journal
       WHERE id = ${sqlName(invocationId)} ORDER BY index`,
    );
  }

  /** The address a deployment was registered at, as the server keeps it. */
  async deploymentAddress(deploymentId: string): Promise<string | null> {
    const rows = await this.query<{ endpoint: string | null }>(
      `SELECT endpoint FROM sys_deployment WHERE id = ${sqlName(deploymentId)}`,
    );
    return rows[0]?.endpoint ?? null;
  }

  /** The result the journal holds for the last `ctx.run` of `step` (its name's head), as the server writes it out; null if none. */
  async runResult(invocationId: string, step: string): Promise<string | null> {
    const rows = await this.query<JournalRow & { entry_json?: string | null }>(
      `SELECT index, entry_type, name, entry_lite_json, entry_json FROM sys_journal
       WHERE id = ${sqlName(invocationId)} ORDER BY index`,
    );
    const run = rows.filter((r) => r.entry_type === 'Command: Run' && stepOf(r.name ?? '') === step).at(-1);
    const id = run ? completionIdOf(run) : undefined;
    if (id === undefined) return null;
    const result = rows.find((r) => r.entry_type !== 'Command: Run' && completionIdOf(r) === id)?.entry_json;
    if (!result) return null;
    // The result's bytes, as the server writes them out: a list of numbers.
    const bytes = (
      JSON.parse(result) as { Notification?: { Completion?: { Run?: { result?: { Success?: number[] } } } } }
    ).Notification?.Completion?.Run?.result?.Success;
    return bytes ? Buffer.from(bytes).toString('utf8') : result;
  }

  /** The attempts the server ended with a failure, in order: when, and its words (its journal events). */
  async failedAttempts(invocationId: string): Promise<{ at: number; why: string }[]> {
    const rows = await this.query<{ appended_at: string; event_json: string }>(
      `SELECT appended_at, event_json FROM sys_journal_events
       WHERE id = ${sqlName(invocationId)} AND event_type = 'TransientError' ORDER BY appended_at`,
    );
    return rows.map((r) => {
      const e = JSON.parse(r.event_json) as {
        error_code?: number;
        error_message?: string;
        restate_doc_error_code?: string;
      };
      return {
        at: Date.parse(r.appended_at),
        why: `${e.restate_doc_error_code ?? e.error_code ?? '?'}: ${e.error_message ?? '?'}`,
      };
    });
  }

  /** What the server keeps of one workflow run: its journal, its state and its promises, with their bytes. */
  async footprint(service: string, key: string, invocationId: string | null): Promise<Footprint> {
    const [journal, state, promises] = await Promise.all([
      invocationId
        ? this.query<{ n: number; bytes: number | null }>(
            `SELECT count(*) AS n, sum(raw_length) AS bytes FROM sys_journal WHERE id = ${sqlName(invocationId)}`,
          )
        : [{ n: 0, bytes: 0 }],
      this.query<{ n: number; bytes: number | null }>(
        `SELECT count(*) AS n, sum(length(value)) AS bytes FROM state
         WHERE service_name = ${sqlName(service)} AND service_key = ${sqlName(key)}`,
      ),
      this.query<{ n: number }>(
        `SELECT count(*) AS n FROM sys_promise WHERE service_name = ${sqlName(service)} AND service_key = ${sqlName(key)}`,
      ),
    ]);
    return {
      items: {
        'journal entries': Number(journal[0]?.n ?? 0),
        'state entries': Number(state[0]?.n ?? 0),
        promises: Number(promises[0]?.n ?? 0),
      },
      bytes: Number(journal[0]?.bytes ?? 0) + Number(state[0]?.bytes ?? 0),
    };
  }
}
