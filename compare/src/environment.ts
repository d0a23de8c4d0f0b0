import { isTemporalConfigVariable, maskDatabaseUrl, WORKER_ENV_PASSTHROUGH } from '@vendor-review/testbed';

/**
 * Which outside settings were in force for a comparison, and which were deliberately kept from the
 * workers. A table is only worth what its conditions are: the report says them (secrets masked),
 * so a reader can tell "measured against my own PostgreSQL and Temporal Cloud, with gpt-4o-mini"
 * from "all simulated on a laptop".
 */
export interface EnvironmentReport {
  /** Settings the harness read, as `NAME=value` with secrets masked. */
  inForce: string[];
  /**
   * Variables set in the harness's environment that would change what a worker does (its model
   * endpoint, tracing, its plan, its servers): workers get the harness's own values or none.
   */
  notPassedToWorkers: string[];
}

/** Read by the harness itself (besides the Temporal client settings). */
const HARNESS_SETTINGS = ['DATABASE_URL', 'TEMPORAL_CLI_PATH', 'TEMPORAL_UI_URL', 'NO_COLOR'];
/** Would reach into a worker's behaviour if inherited: the model SDK, LangChain/LangSmith, Node, the plan. */
const WORKER_AFFECTING = [
  /^OPENAI_/,
  /^LANGSMITH_/,
  /^LANGCHAIN_/,
  /^MODEL$/,
  /^CRASH_PLAN$/,
  /^WORLD_URL$/,
  /^DATABASE_URL$/,
  /^TEMPORAL_/,
  /^NODE_OPTIONS$/,
  /^(HTTPS?|ALL|NO)_PROXY$/i,
  /^TASK_QUEUE$/,
  /^WORKFLOW_BUNDLE$/,
];
const SECRET = /(KEY|SECRET|TOKEN|PASSWORD|AUTH|_DATA)$|^TEMPORAL_GRPC_META_/;

function shown(name: string, value: string): string {
  if (name === 'DATABASE_URL') return `${name}=${maskDatabaseUrl(value)}`;
  return SECRET.test(name) ? `${name}=***` : `${name}=${value}`;
}

export function environmentReport(
  env: NodeJS.ProcessEnv,
  modelUpstream: { baseUrl: string; model: string } | undefined,
): EnvironmentReport {
  const set = Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== '');
  const inForce = set
    .filter(([k]) => HARNESS_SETTINGS.includes(k) || isTemporalConfigVariable(k))
    .map(([k, v]) => shown(k, v));
  if (modelUpstream) {
    inForce.push(`--model-upstream ${modelUpstream.baseUrl}`, `OPENAI_MODEL=${modelUpstream.model}`);
    if (env.OPENAI_API_KEY) inForce.push('OPENAI_API_KEY=***');
  }
  const notPassedToWorkers = set
    .map(([k]) => k)
    .filter((k) => !WORKER_ENV_PASSTHROUGH.includes(k) && WORKER_AFFECTING.some((p) => p.test(k)));
  return { inForce: inForce.sort(), notPassedToWorkers: notPassedToWorkers.sort() };
}
