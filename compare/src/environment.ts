import type { ServerSpec } from '@vendor-review/conformance';
import { maskDatabaseUrl, WORKER_ENV_PASSTHROUGH } from '@vendor-review/testbed';

/**
 * Which outside settings were in force for a comparison, and which were deliberately kept from the
 * workers. A table is only worth what its conditions are: the report says them (secrets masked),
 * so a reader can tell "measured against my own PostgreSQL and Temporal Cloud, with gpt-4o-mini"
 * from "all simulated on a laptop". What a runtime's own server reads, its spec says.
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

/** Read by the harness itself (besides what each runtime server reads). */
const HARNESS_SETTINGS = ['DATABASE_URL', 'NO_COLOR'];
/** Would reach into a worker's behaviour if inherited: the model SDK, LangChain/LangSmith, Node, the plan. */
const WORKER_AFFECTING = [
  /^OPENAI_/,
  /^LANGSMITH_/,
  /^LANGCHAIN_/,
  /^MODEL$/,
  /^CRASH_PLAN$/,
  /^WORLD_URL$/,
  /^DATABASE_URL$/,
  /^NODE_OPTIONS$/,
  /^NODE_EXTRA_CA_CERTS$/,
  /^(HTTPS?|ALL|NO)_PROXY$/i,
  /^TASK_QUEUE$/,
  /^WORKFLOW_BUNDLE$/,
];
const SECRET = /(KEY|SECRET|TOKEN|PASSWORD|AUTH|_DATA)$/;

export function environmentReport(
  env: NodeJS.ProcessEnv,
  modelUpstream: { baseUrl: string; model: string } | undefined,
  /** The runtimes' own servers: the settings each reads count, and none reaches a worker unasked. */
  servers: readonly Pick<ServerSpec, 'variables'>[] = [],
): EnvironmentReport {
  const readByServer = (k: string) => servers.some((s) => s.variables.reads(k));
  const secret = (k: string) => SECRET.test(k) || servers.some((s) => s.variables.secret(k));
  const shown = (k: string, v: string) =>
    k === 'DATABASE_URL' ? `${k}=${maskDatabaseUrl(v)}` : secret(k) ? `${k}=***` : `${k}=${v}`;
  const set = Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== '');
  const inForce = set.filter(([k]) => HARNESS_SETTINGS.includes(k) || readByServer(k)).map(([k, v]) => shown(k, v));
  if (modelUpstream) {
    inForce.push(`--model-upstream ${modelUpstream.baseUrl}`, `OPENAI_MODEL=${modelUpstream.model}`);
    if (env.OPENAI_API_KEY) inForce.push('OPENAI_API_KEY=***');
  }
  const notPassedToWorkers = set
    .map(([k]) => k)
    .filter((k) => !WORKER_ENV_PASSTHROUGH.includes(k) && (WORKER_AFFECTING.some((p) => p.test(k)) || readByServer(k)));
  return { inForce: inForce.sort(), notPassedToWorkers: notPassedToWorkers.sort() };
}
