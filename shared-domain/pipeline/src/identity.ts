/**
 * The business run id names the customer's job ("review Acme for procurement ticket 42").
 * The runtime ids name whatever the orchestrator uses to find its durable record:
 * a LangGraph thread_id, or a Temporal workflow id plus the run id of one execution.
 * They map one-to-one here, but they are different things and reports show both.
 */
/** The runtime's registered name (its runtime module's `info.name`): the domain knows none of them. */
export type Runtime = string;

export interface RunIdentity {
  /** Business run id, e.g. "rev-acme-3f9c1a2b". Stable for the life of the job. */
  runId: string;
  runtime: Runtime;
  /** LangGraph: the thread_id. Temporal: the workflow id. Plain runner: equals runId. */
  runtimeId: string;
  /** Temporal only: the run id of the execution that was started. */
  runtimeRunId?: string;
}

/**
 * The start of a run id that says where it ran, so a ledger or a table is read without a lookup:
 * `tm-naive-…`, `lg-async-…` (a naive run in a durability mode is named by the mode), `db-hard-coarse-…`.
 */
export function runIdPrefix(
  short: string,
  config: { variant: 'naive' | 'hardened'; durability?: string | null; granularity?: string },
): string {
  const how = config.variant === 'naive' ? (config.durability ?? 'naive') : 'hard';
  const granularity = config.granularity && config.granularity !== 'fine' ? `-${config.granularity}` : '';
  return `${short}-${how}${granularity}`;
}

export function newRunId(vendorSlug: string): string {
  const suffix = crypto.randomUUID().replace(/-/g, '').slice(0, 8);
  return `rev-${vendorSlug}-${suffix}`;
}
