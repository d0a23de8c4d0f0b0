/**
 * The endpoint: it serves the `review` workflow (workflow.ts) over HTTP/2 to the Restate server,
 * for every run the server pushes to it, as restatedev/examples' services do. It neither registers
 * itself nor starts runs: a deployment registers its address with the server (`restate deployments
 * register`, or client.ts), and a client submits runs. The server, not this process, decides what
 * runs here: after a lost endpoint it invokes the workflow again at the deployment's address and
 * replays its journal.
 *
 * `serveReviewEndpoint` takes the SDK's own endpoint options (`defaultServiceOptions.hooks`, a
 * logger): worker.ts passes none; whoever composes it differently passes theirs.
 */
import { rmSync } from 'node:fs';
import http2 from 'node:http2';
import * as restate from '@restatedev/restate-sdk';
import { stepGate, UsageError, workerPool, workerPorts } from '@vendor-review/worker-io';
import { supplyPromiseWithResolvers } from './node20.ts';
import { reviewWorkflow } from './workflow.ts';

/** What the endpoint is told by its environment. */
export interface EndpointConfig {
  databaseUrl: string;
  /** Where it listens: a Unix socket behind a load balancer, or a TCP port. */
  listen: { socket: string } | { port: number };
  /** The worker's name in the ledger. */
  worker: string;
  /** The service's name; unset, `review`. */
  serviceName?: string;
  /** The service's retry policy's first wait; unset, the server's. */
  retryInitialIntervalMs?: number;
  /** The service's inactivity and abort timeouts (workflow.ts); unset, the server's. */
  inactivityTimeoutMs?: number;
  abortTimeoutMs?: number;
}

/** How the endpoint is composed: the SDK's endpoint options, all but the services, and what SIGTERM does. */
export interface ServeOptions {
  sdk?: Omit<restate.EndpointOptions, 'services'>;
  /** Asked to stop, let hardened runs' steps in flight be recorded first (otherwise die of the signal, as Node does). */
  drainOnSigterm?: boolean;
}

export interface ReviewEndpoint {
  /** Stops taking connections (those open end with their process) and lets go of the database. */
  close(): Promise<void>;
}

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (!value) throw new UsageError(`${name} is not set`);
  return value;
}

/** A whole number from the environment, or undefined when unset. */
function optionalWhole(env: NodeJS.ProcessEnv, name: string, what: string): number | undefined {
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`${name} must be ${what}, got "${value}"`, { seeHelp: false });
  return n;
}

/**
 * Environment: DATABASE_URL, WORLD_URL (read by the ports), ENDPOINT_SOCKET or PORT (default 9080),
 * WORKER_NAME, TRACE_STEPS (`pnpm lab worker`), RETRY_INITIAL_INTERVAL_MS, INACTIVITY_TIMEOUT_MS,
 * ABORT_TIMEOUT_MS.
 */
export function readEndpointConfig(env: NodeJS.ProcessEnv = process.env): EndpointConfig {
  const ms = (name: string) => optionalWhole(env, name, 'a whole number of milliseconds');
  const tuned = {
    retryInitialIntervalMs: ms('RETRY_INITIAL_INTERVAL_MS'),
    inactivityTimeoutMs: ms('INACTIVITY_TIMEOUT_MS'),
    abortTimeoutMs: ms('ABORT_TIMEOUT_MS'),
  };
  const socket = env.ENDPOINT_SOCKET;
  return {
    databaseUrl: required(env, 'DATABASE_URL'),
    listen: socket ? { socket } : { port: optionalWhole(env, 'PORT', 'a port number') ?? 9080 },
    worker: env.WORKER_NAME ?? 'A',
    ...Object.fromEntries(Object.entries(tuned).filter(([, v]) => v !== undefined)),
  };
}

/** Listens and serves the workflow until closed. */
export async function serveReviewEndpoint(config: EndpointConfig, options: ServeOptions = {}): Promise<ReviewEndpoint> {
  supplyPromiseWithResolvers();
  const pool = workerPool(config.databaseUrl, 3);
  const gate = stepGate(options.drainOnSigterm ?? false);
  const { ports, trace } = workerPorts(config.worker);
  const workflow = reviewWorkflow(
    { ports, worker: config.worker, pool, gate, trace },
    {
      name: config.serviceName,
      retryInitialIntervalMs: config.retryInitialIntervalMs,
      inactivityTimeoutMs: config.inactivityTimeoutMs,
      abortTimeoutMs: config.abortTimeoutMs,
    },
  );
  const server = http2.createServer(restate.createEndpointHandler({ ...options.sdk, services: [workflow] }));
  const { listen } = config;
  if ('socket' in listen) rmSync(listen.socket, { force: true }); // a killed predecessor's socket file: nobody answers there
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    if ('socket' in listen) server.listen(listen.socket, resolve);
    else server.listen(listen.port, resolve);
  });
  const where = 'socket' in listen ? `socket=${listen.socket}` : `port=${listen.port}`;
  process.stdout.write(`READY service=${workflow.name} ${where}\n`);
  return {
    async close() {
      server.close();
      await pool.end();
    },
  };
}
