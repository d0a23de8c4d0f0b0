import type { Decision } from '@vendor-review/pipeline';
import type { ReviewInput } from './workflow.ts';

/**
 * What the application says to the Restate server, over its two HTTP APIs: the admin API
 * (deployments) and the ingress (invocations, awakeables). One function per call.
 */
export interface RestateUrls {
  ingressUrl: string;
  adminUrl: string;
}

export class RestateHttpError extends Error {
  constructor(
    readonly status: number,
    what: string,
    body: string,
  ) {
    super(`${what}: HTTP ${status} ${body.slice(0, 300)}`);
  }
}

async function call(url: string, what: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(url, {
    ...init,
    headers: { 'content-type': 'application/json', accept: 'application/json', ...init.headers },
  });
  if (!res.ok) throw new RestateHttpError(res.status, what, await res.text());
  return res;
}

/**
 * Tells the server where a service's endpoint answers; the server asks it which services it
 * serves. The same address with the same services again is a no-op (200), as a deploy pipeline
 * that runs twice needs.
 */
export async function registerDeployment(urls: RestateUrls, uri: string): Promise<string> {
  const res = await call(`${urls.adminUrl}/deployments`, `registering ${uri}`, {
    method: 'POST',
    body: JSON.stringify({ uri }),
  });
  return ((await res.json()) as { id: string }).id;
}

/** A name of ours put into the admin API's SQL (a run's service, key, invocation id), checked first. */
export function sqlName(value: string): string {
  if (!/^[A-Za-z0-9_.:-]+$/.test(value)) throw new Error(`not a name of ours: ${value}`);
  return `'${value}'`;
}

/** Rows of a query to the admin API's SQL introspection (the server's invocations, journals, state). */
export async function adminQuery<R>(urls: Pick<RestateUrls, 'adminUrl'>, sql: string): Promise<R[]> {
  const res = await call(`${urls.adminUrl}/query`, 'Restate admin query', {
    method: 'POST',
    body: JSON.stringify({ query: sql }),
    // The server compresses what fetch says it accepts; its answers here are a few rows, read
    // next to it many times a second, where compressing them only costs CPU on both sides.
    headers: { 'accept-encoding': 'identity' },
  });
  return ((await res.json()) as { rows: R[] }).rows;
}

/**
 * The deployment the run's invocation is pinned to (the server keeps an invocation on the code it
 * started with); null before it started.
 */
export async function pinnedDeployment(urls: RestateUrls, service: string, runId: string): Promise<string | null> {
  const rows = await adminQuery<{ pinned_deployment_id?: string | null }>(
    urls,
    `SELECT pinned_deployment_id FROM sys_invocation
     WHERE target_service_name = ${sqlName(service)} AND target_service_key = ${sqlName(runId)} AND target_handler_name = 'run'`,
  );
  return rows[0]?.pinned_deployment_id ?? null;
}

/** Starts the run's workflow once: a second submit of the same key is "PreviouslyAccepted", not a second run. */
export async function submitReview(urls: RestateUrls, service: string, input: ReviewInput): Promise<string> {
  const res = await call(
    `${urls.ingressUrl}/${service}/${encodeURIComponent(input.runId)}/run/send`,
    `submitting ${input.runId}`,
    { method: 'POST', body: JSON.stringify(input) },
  );
  return ((await res.json()) as { invocationId: string }).invocationId;
}

/** Waits for the workflow's outcome (the server holds the request open), or its failure as an HTTP error. */
export async function attachReview(urls: RestateUrls, service: string, runId: string): Promise<unknown> {
  const res = await call(
    `${urls.ingressUrl}/restate/workflow/${service}/${encodeURIComponent(runId)}/attach`,
    `attaching ${runId}`,
  );
  return res.json();
}

/** The workflow's result once it has one; null while it runs. */
export async function reviewOutput(urls: RestateUrls, service: string, runId: string): Promise<unknown> {
  const res = await fetch(`${urls.ingressUrl}/restate/workflow/${service}/${encodeURIComponent(runId)}/output`, {
    headers: { accept: 'application/json' },
  });
  if (res.status === 470 || res.status === 404) return null; // not finished, or not started
  if (!res.ok) throw new RestateHttpError(res.status, `reading ${runId}'s output`, await res.text());
  return res.json();
}

/**
 * The person's decision, sent to the workflow's `approve` handler. Sent, not called: the server
 * accepts it while no endpoint is alive and delivers it when one is; one key per run makes a second
 * send the same invocation.
 */
export async function sendApproval(urls: RestateUrls, service: string, runId: string, d: Decision): Promise<void> {
  await call(`${urls.ingressUrl}/${service}/${encodeURIComponent(runId)}/approve/send`, 'sending the approval', {
    method: 'POST',
    headers: { 'idempotency-key': `approval-${runId}` },
    body: JSON.stringify(d),
  });
}
