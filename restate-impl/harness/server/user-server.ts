import { InfraError, type InfraLog } from '@vendor-review/testbed';
import { sleep } from '@vendor-review/worker-io';
import { healthy, partitionsRunning, serverVersion, webUi, type RestateUrls } from './probe.ts';

/** The user's way to point the harness at a Restate server of their own (e.g. docker-compose.yml's). */
export const ADMIN_URL = 'RESTATE_ADMIN_URL';
export const INGRESS_URL = 'RESTATE_INGRESS_URL';
/** The host that server reaches the workers' endpoints at: host.docker.internal for one in Docker. */
export const ENDPOINT_HOST = 'RESTATE_ENDPOINT_HOST';

/** What a server on this machine's loopback reaches the workers' endpoints at. */
export const LOOPBACK = '127.0.0.1';

export interface UserRestate extends RestateUrls {
  endpointHost: string;
  version: string | null;
  uiUrl: string | null;
}

const UNSET_BOTH = `or unset ${ADMIN_URL} and ${INGRESS_URL} to let the harness start its own`;

function urlFrom(env: NodeJS.ProcessEnv, name: string): string {
  const raw = env[name]!.trim();
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InfraError(`restate: ${name}=${raw} is not a URL: set it like http://127.0.0.1:18080, ${UNSET_BOTH}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InfraError(
      `restate: ${name}=${raw} is not an http(s) URL: set it like http://127.0.0.1:18080, ${UNSET_BOTH}`,
    );
  }
  // Paths are appended to it ("/health", "/restate/health"): no trailing slash.
  return url.href.replace(/\/+$/, '');
}

function endpointHostFrom(env: NodeJS.ProcessEnv): string {
  const host = env[ENDPOINT_HOST]?.trim();
  if (!host) return LOOPBACK;
  if (!/^([A-Za-z0-9_.-]+|\[[0-9A-Fa-f:.]+\])$/.test(host)) {
    throw new InfraError(
      `restate: ${ENDPOINT_HOST}=${host} is not a host name or address: set it to the host the Restate server reaches this machine at ` +
        '(host.docker.internal for a server in Docker), or unset it for 127.0.0.1',
    );
  }
  return host;
}

/**
 * The user's server when the environment names one: RESTATE_ADMIN_URL and RESTATE_INGRESS_URL,
 * both or neither (null). It must answer on both, and is waited for while it starts (every
 * partition running, as for one of ours) up to `waitMs`, e.g. just after `docker compose up -d`;
 * nothing listening at all fails at once.
 */
export async function userRestate(env: NodeJS.ProcessEnv, log: InfraLog, waitMs = 60_000): Promise<UserRestate | null> {
  const admin = env[ADMIN_URL]?.trim();
  const ingress = env[INGRESS_URL]?.trim();
  if (!admin && !ingress) return null;
  if (!admin || !ingress) {
    const [set, missing] = admin ? [ADMIN_URL, INGRESS_URL] : [INGRESS_URL, ADMIN_URL];
    throw new InfraError(
      `restate: ${set} is set but ${missing} is not: a server of your own needs both ` +
        `(with docker-compose.yml: ${INGRESS_URL}=http://127.0.0.1:18080 and ${ADMIN_URL}=http://127.0.0.1:19070), ` +
        `or unset ${set} to let the harness start its own`,
    );
  }
  const urls: RestateUrls = { adminUrl: urlFrom(env, ADMIN_URL), ingressUrl: urlFrom(env, INGRESS_URL) };
  const endpointHost = endpointHostFrom(env);
  const where = `${INGRESS_URL}=${urls.ingressUrl}, ${ADMIN_URL}=${urls.adminUrl}`;

  const deadline = Date.now() + waitMs;
  let announced = false;
  for (;;) {
    const unhealthy = await healthy(urls, 5_000);
    const notReady = unhealthy?.reason ?? (await partitionsRunning(urls.adminUrl, 5_000));
    if (notReady === null) break;
    if (unhealthy?.refused && !announced) {
      throw new InfraError(
        `restate: cannot reach the Restate server at ${where} (${unhealthy.reason}): ` +
          `start it (e.g. \`docker compose up -d restate\`), ${UNSET_BOTH}`,
      );
    }
    if (Date.now() >= deadline) {
      throw new InfraError(
        `restate: the Restate server at ${where} is not ready after ${waitMs / 1000} s (${notReady}): ` +
          `check that these are its ingress (8080 in its container) and admin (9070) ports, ${UNSET_BOTH}`,
      );
    }
    if (!announced) {
      log(`restate: waiting up to ${waitMs / 1000} s for the Restate server at ${where} to be ready (${notReady})`);
      announced = true;
    }
    await sleep(250);
  }
  const [version, uiUrl] = await Promise.all([serverVersion(urls.adminUrl), webUi(urls.adminUrl)]);
  log(
    `restate: using ${where}${version ? `, server ${version}` : ''}, endpoints registered at ${endpointHost}` +
      `${uiUrl ? `, UI ${uiUrl}` : ''}`,
  );
  return { ...urls, endpointHost, version, uiUrl };
}
