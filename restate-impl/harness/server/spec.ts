import type { ServerSpec } from '@vendor-review/conformance';
import { InfraError } from '@vendor-review/testbed';
import { startOwnRestate } from './own-server.ts';
import { answers, webUi } from './probe.ts';
import { ADMIN_URL, ENDPOINT_HOST, INGRESS_URL, LOOPBACK, userRestate } from './user-server.ts';

/** How the Restate runtime and its workers reach the server: plain data, kept by the lab between commands. */
export interface RestateServer {
  /** Where invocations are sent (`http://127.0.0.1:18080`), no trailing slash. */
  ingressUrl: string;
  /** Where deployments are registered and the SQL introspection answers (`http://127.0.0.1:19070`), no trailing slash. */
  adminUrl: string;
  /**
   * The host a worker's endpoint is registered at, so the server can call it: 127.0.0.1 for a
   * server on this machine, `host.docker.internal` for one in Docker (RESTATE_ENDPOINT_HOST).
   */
  endpointHost: string;
}

const VARIABLES = [ADMIN_URL, INGRESS_URL, ENDPOINT_HOST];

const hostPort = (url: string) => new URL(url).host;

/**
 * The Restate server, as the Restate runtime module declares it: the user's own where the
 * environment names one (RESTATE_ADMIN_URL and RESTATE_INGRESS_URL, with RESTATE_ENDPOINT_HOST for
 * one in Docker), else a restate-server from npm on loopback, its state on disk (under `dataDir`,
 * else in a temporary directory), so that a restart, on the same ports, keeps every invocation.
 */
export const RESTATE_SERVER: ServerSpec<RestateServer> = {
  id: 'restate',
  title: 'the Restate server',
  label: 'Restate server',
  variables: {
    reads: (name) => VARIABLES.includes(name),
    secret: () => false,
  },
  async start(o) {
    const user = o.own ? null : await userRestate(o.env, o.log);
    if (user) {
      return {
        connection: { ingressUrl: user.ingressUrl, adminUrl: user.adminUrl, endpointHost: user.endpointHost },
        description:
          `Restate server ${user.version ?? '(version unknown)'} at ${INGRESS_URL}=${user.ingressUrl}, ${ADMIN_URL}=${user.adminUrl}` +
          `, endpoints registered at ${user.endpointHost}`,
        version: user.version,
        uiUrl: user.uiUrl,
        owned: false,
        // Restate keeps its state on disk; whether the user's restarts keep it is theirs to say.
        forgetsOnRestart: null,
        pid: () => null,
        stop: async () => undefined,
      };
    }
    const own = await startOwnRestate({ log: o.log, ...(o.dataDir ? { dataDir: o.dataDir } : {}) });
    const { first } = own;
    // The admin API serves the UI itself (`o.ui` asks for nothing more); null if this build does not.
    const uiUrl = await webUi(first.adminUrl);
    return {
      // A server of ours listens on this machine's loopback only: it calls the workers there too.
      connection: { ingressUrl: first.ingressUrl, adminUrl: first.adminUrl, endpointHost: LOOPBACK },
      description:
        `Restate server ${first.version ?? '(version unknown)'} (restate-server from npm) ` +
        `ingress ${hostPort(first.ingressUrl)}, admin ${hostPort(first.adminUrl)}, 4 partitions, state in ${own.baseDir}`,
      version: first.version,
      uiUrl,
      owned: true,
      forgetsOnRestart: null,
      pid: () => own.pid(),
      restart: (r = {}) => own.restart(r),
      stop: () => own.stop(),
    };
  },
  async check(c) {
    const down = await answers(`${c.adminUrl}/health`, 3_000);
    if (down) {
      throw new InfraError(
        `restate: the Restate server's admin API ${c.adminUrl} does not answer /health (${down.reason})`,
      );
    }
  },
};
