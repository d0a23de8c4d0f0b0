/**
 * What the Restate server records of a run, read from outside the workers through its admin
 * API's SQL introspection (`POST /query`): the invocation, its journal and the workflow's state.
 * All SQL is here. Names put into the SQL are ours (a run's service name and key), checked first.
 */
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

  /** The run's workflow invocation (a workflow key runs its `run` handler once), or null before it was submitted. */
  async invocation(service: string, key: string): Promise<InvocationRow | null> {
    const rows = await this.query<InvocationRow>(
      `SELECT id, status, completion_result, completion_failure, retry_count, last_failure, pinned_deployment_id,
              last_attempt_deployment_id, created_at, modified_at
       FROM sys_invocation
       WHERE target_service_name = ${literal(service)} AND target_service_key = ${literal(key)}
         AND target_handler_name = 'run'`,
    );
    return rows[0] ?? null;
  }

  /** The workflow's state, each value as JSON text. */
  async state(service: string, key: string): Promise<Record<string, string>> {
    const rows = await this.query<{ key: string; value_utf8: string }>(
      `SELECT key, value_utf8 FROM state WHERE service_name = ${literal(service)} AND service_key = ${literal(key)}`,
    );
    return Object.fromEntries(rows.map((r) => [r.key, r.value_utf8]));
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
}
