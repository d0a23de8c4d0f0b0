/**
 * What the Restate server records of a run, read from outside the workers through its admin
 * API's SQL introspection (`POST /query`): the invocation, its journal and the phase in its state.
 * All SQL is here. Names put into the SQL are ours (a run's service name and key), checked first.
 */
import type { Footprint } from '@vendor-review/conformance';
import { PHASE_KEY } from '../src/workflow.ts';

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
}

const SAFE = /^[A-Za-z0-9_.:-]+$/;
function literal(value: string): string {
  if (!SAFE.test(value)) throw new Error(`not a name of ours: ${value}`);
  return `'${value}'`;
}

export class RestateJournal {
  constructor(private readonly adminUrl: string) {}

  private async query<R>(sql: string): Promise<R[]> {
    const res = await fetch(`${this.adminUrl}/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: sql }),
    });
    if (!res.ok) throw new Error(`Restate admin query: HTTP ${res.status} ${(await res.text()).slice(0, 200)}`);
    return ((await res.json()) as { rows: R[] }).rows;
  }

  /** The run's workflow invocation (a workflow key runs its `run` handler once) and its phase, or null before it was submitted. */
  async invocation(service: string, key: string): Promise<InvocationRow | null> {
    const rows = await this.query<InvocationRow>(
      `SELECT i.id, i.status, i.completion_result, i.completion_failure, i.retry_count, i.last_failure,
              i.pinned_deployment_id, i.last_attempt_deployment_id, i.created_at, i.modified_at, i.completed_at,
              s.value_utf8 AS phase
       FROM sys_invocation i
       LEFT JOIN state s ON s.service_name = i.target_service_name AND s.service_key = i.target_service_key
                        AND s.key = ${literal(PHASE_KEY)}
       WHERE i.target_service_name = ${literal(service)} AND i.target_service_key = ${literal(key)}
         AND i.target_handler_name = 'run'`,
    );
    return rows[0] ?? null;
  }

  async entries(invocationId: string): Promise<JournalRow[]> {
    return this.query<JournalRow>(
      `SELECT index, entry_type, name, entry_lite_json, appended_at FROM sys_journal
       WHERE id = ${literal(invocationId)} ORDER BY index`,
    );
  }

  /** The bytes the server keeps of the invocation's journal, as it counts them. */
  async journalBytes(invocationId: string): Promise<number> {
    const rows = await this.query<{ bytes: number | null }>(
      `SELECT sum(raw_length) AS bytes FROM sys_journal WHERE id = ${literal(invocationId)}`,
    );
    return Number(rows[0]?.bytes ?? 0);
  }

  /** What the server keeps of one workflow run: its journal, its state and its promises, with their bytes. */
  async footprint(service: string, key: string, invocationId: string | null): Promise<Footprint> {
    const [journal, state, promises] = await Promise.all([
      invocationId
        ? this.query<{ n: number; bytes: number | null }>(
            `SELECT count(*) AS n, sum(raw_length) AS bytes FROM sys_journal WHERE id = ${literal(invocationId)}`,
          )
        : [{ n: 0, bytes: 0 }],
      this.query<{ n: number; bytes: number | null }>(
        `SELECT count(*) AS n, sum(length(value)) AS bytes FROM state
         WHERE service_name = ${literal(service)} AND service_key = ${literal(key)}`,
      ),
      this.query<{ n: number }>(
        `SELECT count(*) AS n FROM sys_promise WHERE service_name = ${literal(service)} AND service_key = ${literal(key)}`,
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
