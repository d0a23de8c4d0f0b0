import { join } from 'node:path';
import type { ServerSpec } from '@vendor-review/conformance';
import { isTemporalConfigVariable, NO_PROFILE_FILE, type TemporalConnectionOptions } from './config.ts';
import { startTemporal } from './dev-server.ts';
import type { TemporalHandle } from './handle.ts';

/** How the Temporal runtime and its workers reach the server: plain data, kept by the lab between commands. */
export interface TemporalServer {
  address: string;
  namespace: string;
  /** What `Connection.connect` takes (TLS and an API key for a user's own server). */
  connection: TemporalConnectionOptions;
  /** The environment a worker connects with (its envconfig reads it). */
  workerEnv: Record<string, string>;
  /** The web UI where runs outlive the harness (a user's server, the lab's): each run is linked there. */
  uiUrl: string | null;
}

/** The settings meant for a user's Temporal that the harness itself reads besides envconfig's. */
const HARNESS_VARIABLES = ['TEMPORAL_CLI_PATH', 'TEMPORAL_UI_URL'];

/** A server of the harness's own only: a user's TEMPORAL_ADDRESS or config profile must not redirect it. */
function ownServerEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    PATH: env.PATH,
    TEMPORAL_CONFIG_FILE: NO_PROFILE_FILE,
    ...(env.TEMPORAL_CLI_PATH ? { TEMPORAL_CLI_PATH: env.TEMPORAL_CLI_PATH } : {}),
  };
}

function described(t: TemporalHandle): string {
  const kind =
    t.kind === 'cli' ? 'dev server (Temporal CLI)' : t.kind === 'external' ? t.source : 'SDK-downloaded dev server';
  const state = t.kind === 'external' ? '' : t.dbFilename ? `, state in ${t.dbFilename}` : ', state in memory';
  return (
    `${kind} ${t.address}, namespace ${t.namespace}` +
    `${t.serverVersion ? `, server ${t.serverVersion}` : ''}${t.tls ? ', TLS' : ''}${t.apiKey ? ', API key' : ''}${state}`
  );
}

/**
 * The Temporal server, as the Temporal runtime module declares it: the user's own where the
 * environment names one (TEMPORAL_ADDRESS, a profile of the Temporal config file, with TLS and an
 * API key), else a dev server started from the Temporal CLI (or, with neither, the SDK's download),
 * on a file in `dataDir` when one is given so that a restart keeps every run.
 */
export const TEMPORAL_SERVER: ServerSpec<TemporalServer> = {
  id: 'temporal',
  title: 'the Temporal server',
  label: 'Temporal server',
  variables: {
    reads: (name) => isTemporalConfigVariable(name) || HARNESS_VARIABLES.includes(name),
    secret: (name) => /(KEY|AUTH|_DATA)$/.test(name) || name.startsWith('TEMPORAL_GRPC_META_'),
  },
  async start(o) {
    const t = await startTemporal({
      env: o.own ? ownServerEnv(o.env) : o.env,
      log: o.log,
      ...(o.ui ? { ui: true } : {}),
      ...(o.dataDir ? { dbFilename: join(o.dataDir, 'temporal.db') } : {}),
      sdkFallback: async () => (await import('../sdk-fallback.ts')).sdkDownloadedTemporal(),
    });
    // A user's server keeps its runs after the harness: they are linked in its UI.
    const uiUrl = t.kind === 'external' ? o.env.TEMPORAL_UI_URL?.trim() || 'http://localhost:8080' : (t.uiUrl ?? null);
    return {
      connection: {
        address: t.address,
        namespace: t.namespace,
        connection: t.connection,
        workerEnv: t.workerEnv,
        uiUrl,
      },
      description: described(t),
      version: t.serverVersion,
      uiUrl,
      owned: t.kind !== 'external',
      forgetsOnRestart: t.dbFilename ? null : 'the harness’s Temporal dev server keeps its state in memory',
      pid: () => t.pid ?? null,
      ...(t.restart ? { restart: (r = {}) => t.restart!(r) } : {}),
      stop: () => t.stop(),
    };
  },
  async check(c) {
    await startTemporal({
      env: { TEMPORAL_ADDRESS: c.address, TEMPORAL_NAMESPACE: c.namespace, TEMPORAL_CONFIG_FILE: NO_PROFILE_FILE },
      log: () => undefined,
      connectTimeoutMs: 3_000,
      namespaceWaitMs: 0,
    });
  },
};
