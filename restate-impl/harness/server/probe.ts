import { reasonOf } from '@vendor-review/testbed';

/** The two HTTP APIs a Restate server serves: where invocations come in, and where it is administered. */
export interface RestateUrls {
  ingressUrl: string;
  adminUrl: string;
}

/** What a probe met: the status and body of an answer, or why there was none. */
type Answer = { ok: true; status: number; body: string } | { ok: false; reason: string; refused: boolean };

async function ask(url: string, timeoutMs: number, init: RequestInit = {}): Promise<Answer> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    return { ok: true, status: res.status, body: await res.text() };
  } catch (err) {
    // fetch says only "fetch failed"; the reason (ECONNREFUSED, a reset) is its cause.
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
    const reason =
      err instanceof Error && err.name === 'TimeoutError' ? `no answer within ${timeoutMs}ms` : reasonOf(cause);
    return { ok: false, reason, refused: /ECONNREFUSED/.test(reason) };
  }
}

const shortBody = (body: string) => body.replace(/\s+/g, ' ').trim().slice(0, 200);

/** Null when `url` answers 200, else why not (in a few words), and whether nothing listens there. */
export async function answers(url: string, timeoutMs: number): Promise<{ reason: string; refused: boolean } | null> {
  const a = await ask(url, timeoutMs);
  if (!a.ok) return { reason: a.reason, refused: a.refused };
  return a.status === 200 ? null : { reason: `HTTP ${a.status} ${shortBody(a.body)}`.trim(), refused: false };
}

/** Null when both APIs say they are healthy (admin `/health`, ingress `/restate/health`), else why not. */
export async function healthy(s: RestateUrls, timeoutMs: number): Promise<{ reason: string; refused: boolean } | null> {
  const admin = await answers(`${s.adminUrl}/health`, timeoutMs);
  if (admin) return { ...admin, reason: `admin ${s.adminUrl}/health: ${admin.reason}` };
  const ingress = await answers(`${s.ingressUrl}/restate/health`, timeoutMs);
  return ingress ? { ...ingress, reason: `ingress ${s.ingressUrl}/restate/health: ${ingress.reason}` } : null;
}

/**
 * Null once every partition runs on the server, else why not. Healthy APIs are not enough: right
 * after a start the partition processors are still taking leadership (about 0.7 s after the health
 * endpoints answer, on a fresh server), and an invocation sent meanwhile waited that long. A scan of
 * a system table reads every partition, and fails ("partition 3 doesn't exist on this node") until
 * each one runs; once it succeeds the first invocation took 10–20 ms instead of ~550 ms. (The
 * partition table of `restatectl` is gRPC only; this is the documented SQL API.) Each failed scan
 * is logged by the server as a WARN of `restate_admin::query_utils`.
 */
export async function partitionsRunning(adminUrl: string, timeoutMs: number): Promise<string | null> {
  const a = await ask(`${adminUrl}/query`, timeoutMs, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query: 'SELECT count(*) AS n FROM sys_invocation_status' }),
  });
  if (!a.ok) return `admin ${adminUrl}/query: ${a.reason}`;
  return a.status === 200 ? null : `not every partition runs yet (HTTP ${a.status} ${shortBody(a.body)})`;
}

/** The version the admin API reports (`GET /version` → `{"version":"1.7.12",…}`), or null when it does not say. */
export async function serverVersion(adminUrl: string, timeoutMs = 3_000): Promise<string | null> {
  const a = await ask(`${adminUrl}/version`, timeoutMs);
  if (!a.ok || a.status !== 200) return null;
  try {
    const version = (JSON.parse(a.body) as { version?: unknown }).version;
    return typeof version === 'string' ? version : null;
  } catch {
    return null;
  }
}

/** The web UI the admin API serves under `/ui/` (unless the server runs with `admin.disable-web-ui`), or null. */
export async function webUi(adminUrl: string, timeoutMs = 3_000): Promise<string | null> {
  const url = `${adminUrl}/ui/`;
  return (await answers(url, timeoutMs)) ? null : url;
}
