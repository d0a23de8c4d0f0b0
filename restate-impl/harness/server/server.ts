import {
  AddressInUseError,
  InfraError,
  listensOn,
  mentionsAddressInUse,
  startServerProcess,
  type InfraLog,
} from '@vendor-review/testbed';
import { sleep } from '@vendor-review/worker-io';
import { healthy, partitionsRunning, serverVersion } from './probe.ts';

/** The three TCP ports one server listens on; a restart binds the same ones, since clients and the node's own metadata know them. */
export interface RestatePorts {
  ingress: number;
  admin: number;
  /** Node-to-node traffic ("message fabric"); also where the node advertises itself in its stored metadata. */
  fabric: number;
}

export interface RestateProcessOptions {
  binary: string;
  /** The server's state (RocksDB, its log, its metadata), under `<baseDir>/<node name>/`. */
  baseDir: string;
  /** Where to listen. Default: ports the server picks itself (port 0), read back from its log. */
  ports?: RestatePorts;
  log: InfraLog;
  /** Also handed to the parent-death watcher, which removes it if this process is SIGKILLed (a temporary directory). */
  removeDirWithParent?: string;
  /** How long it gets to run every partition. Default: 30 s (it takes about 1 s). */
  readyTimeoutMs?: number;
}

export interface RestateProcess {
  ports: RestatePorts;
  ingressUrl: string;
  adminUrl: string;
  pid: number;
  version: string | null;
  /** SIGTERM, SIGKILL after 10 s; resolves once the process is gone. */
  stop(): Promise<void>;
  /** SIGKILL (a crash); resolves once the process is gone. */
  kill(): Promise<void>;
  /** SIGKILL without waiting, for an exit hook (which may not wait); nothing once it is gone. */
  killNow(): void;
}

/**
 * The node's name is the directory of its state under the base dir, and stored in its metadata.
 * Its default is the host name, which may change (a container, a renamed machine) and would then
 * start an empty node beside the old one; pinned, the same directory is found again.
 */
const NODE_NAME = 'vendor-review';

/** `--log-format json` names each listener and its port; these are the three the harness needs. */
const LISTENERS = {
  'http-ingress-server': 'ingress',
  'admin-api-server': 'admin',
  'message-fabric-server': 'fabric',
} as const;

interface LogLine {
  level?: string;
  target?: string;
  fields?: Record<string, unknown>;
  span?: Record<string, unknown>;
}

function parsed(line: string): LogLine | null {
  if (!line.startsWith('{')) return null;
  try {
    return JSON.parse(line) as LogLine;
  } catch {
    return null;
  }
}

/** One log line in words, for the InfraLog and a failure's message: "ERROR Restate application failed: [admin-api-server] failed binding …". */
function inWords(line: string, l: LogLine | null): string {
  if (!l) return line.trim();
  const message = typeof l.fields?.message === 'string' ? l.fields.message : '';
  const error = l.fields?.error ?? l.fields?.err;
  return `${l.level ?? ''} ${message}${error !== undefined ? `: ${String(error)}` : ''}`.trim();
}

/** "[admin-api-server] failed binding to address '127.0.0.1:46295': Address in use (os error 98)": the port another process holds. */
function portInUse(text: string): number | null {
  const m = /failed binding to address '[^']*:(\d+)'[^|]*address in use/i.exec(text);
  return m ? Number(m[1]) : null;
}

/**
 * One restate-server process on loopback, ready once both APIs are healthy and every partition
 * runs (see probe.ts). Its log is read as JSON: the ports it bound, and the warnings and errors
 * that are passed on to `log`; the rest is kept only to explain a failed start.
 */
export async function startRestateProcess(o: RestateProcessOptions): Promise<RestateProcess> {
  const args = [
    '--no-logo',
    '--node-name',
    NODE_NAME,
    '--base-dir',
    o.baseDir,
    // TCP only: the default also opens unix sockets in the base dir, which nothing here uses.
    '--listen-mode',
    'tcp',
    '--bind-ip',
    '127.0.0.1',
    '--log-format',
    'json',
    // At start the server asks GitHub for its latest release (unconditionally, in 1.7.12); offline
    // the client library logs one ERROR, "failed with error client error (Connect)", from target
    // `octocrab`. It is harmless, and silenced here. restate=info keeps the lines naming the ports.
    '--log-filter',
    'warn,restate=info,octocrab=off',
  ];
  // Only what the server needs: a user's RUST_LOG would override --log-filter (and hide the ports),
  // a user's RESTATE_* settings (RESTATE_ADMIN_URL is one of ours) are not meant for this server.
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
    // Its daily usage ping (an anonymous HTTP request) has no business in a test run.
    RESTATE_DISABLE_TELEMETRY: 'true',
    // One node on a laptop: 4 partitions instead of the default 24 (sized for a cluster). Every SQL
    // read of the harness and every new deployment touches each partition; how many there are
    // changes where invocations are kept, not what happens to them (restate-impl/README.md).
    RESTATE_DEFAULT_NUM_PARTITIONS: '4',
  };
  if (o.ports) {
    args.push('--bind-port', String(o.ports.fabric));
    env.RESTATE_ADMIN__BIND_PORT = String(o.ports.admin);
    env.RESTATE_INGRESS__BIND_PORT = String(o.ports.ingress);
  } else {
    // Port 0 for each listener: nothing to race for, the ports are read back from the log.
    args.push('--use-random-ports', 'true');
  }

  const bound: Partial<RestatePorts> = {};
  let ready = false;
  const heldBack: string[] = [];
  // It writes INFO to stdout and WARN/ERROR (and anything printed before its logging starts) to
  // stderr. The first lines (what it is, its config) and the last ones (why it stopped) are kept
  // in words, for a failure's message.
  const onLine = (line: string) => {
    const l = parsed(line);
    const name = l?.span?.server_name;
    const port = l?.span?.['server.port'];
    if (typeof name === 'string' && name in LISTENERS && typeof port === 'number') {
      bound[LISTENERS[name as keyof typeof LISTENERS]] = port;
    }
    const words = inWords(line, l);
    if (l?.level !== 'WARN' && l?.level !== 'ERROR') return words;
    // The readiness probe's own failed scans, until every partition runs.
    if (!ready && l.target === 'restate_admin::query_utils') return words;
    // An invocation's retries ("Invocation error, retrying in 1s": its endpoint is down) belong to
    // the run, which the runtime observes itself; in a crash scenario they would flood this log.
    if (l.fields?.['restate.invocation.id'] !== undefined) return words;
    const said = `restate: server ${words.slice(0, 400)}`;
    // Until it is ready they are held back: a failed start says them in its error (once, not once
    // per try of a port race), a start that succeeds passes them on then.
    if (ready) o.log(said);
    else heldBack.push(said);
    return words;
  };
  const server = startServerProcess(o.binary, args, {
    env,
    onLine,
    keep: { first: 3, last: 8 },
    ...(o.removeDirWithParent ? { removeDirWithParent: o.removeDirWithParent } : {}),
  });

  const fail = async (what: string): Promise<never> => {
    await server.kill();
    const text = server.output().join(' | ');
    const said = `restate: server \`${o.binary} ${args.join(' ')}\` ${what}${text ? ` (its log: ${text})` : ''}`;
    // A port of a restart (pinned) was taken by another process while the server was down.
    const held = portInUse(text);
    if (held !== null || mentionsAddressInUse(text)) throw new AddressInUseError(held ?? o.ports?.ingress ?? 0, said);
    throw new InfraError(
      `${said}: fix what its log says, or set RESTATE_ADMIN_URL and RESTATE_INGRESS_URL to use a running server instead`,
    );
  };

  const handle = (
    ports: RestatePorts,
    urls: { ingressUrl: string; adminUrl: string },
    version: string | null,
  ): RestateProcess => ({
    ports,
    ...urls,
    pid: server.pid!,
    version,
    stop: () => server.stop(),
    kill: () => server.kill(),
    killNow: () => server.killNow(),
  });

  const timeoutMs = o.readyTimeoutMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  let waitingFor = 'its ports in its log';
  for (;;) {
    if (server.isGone()) await fail(server.whyGoneBeforeReady());
    if (bound.ingress !== undefined && bound.admin !== undefined && bound.fabric !== undefined) {
      const urls = { ingressUrl: `http://127.0.0.1:${bound.ingress}`, adminUrl: `http://127.0.0.1:${bound.admin}` };
      // A port that answers is ours only if our process listens there: on a pinned port, another
      // server that took it while ours was down would otherwise pass for ours.
      const ours = (p: number) => server.pid === undefined || listensOn(server.pid, p) !== false;
      const unhealthy = await healthy(urls, 1_000);
      waitingFor = unhealthy?.reason ?? 'every partition to run';
      if (!unhealthy && ours(bound.ingress) && ours(bound.admin)) {
        const partitions = await partitionsRunning(urls.adminUrl, 2_000);
        if (partitions === null && !server.isGone()) {
          ready = true;
          for (const said of heldBack.splice(0)) o.log(said);
          const ports = bound as RestatePorts;
          return handle(ports, urls, await serverVersion(urls.adminUrl));
        }
        waitingFor = partitions ?? waitingFor;
      }
    }
    if (Date.now() > deadline) await fail(`was not ready within ${timeoutMs}ms (waiting for ${waitingFor})`);
    await sleep(50);
  }
}
