/**
 * The worker: its settings from the environment (see worker.ts), the activities, the hardened
 * outbox's drainer, and the SDK's Worker polling the task queue until it is asked to stop. A caller
 * may lay the SDK's own interceptors over it (`WorkerOptions.interceptors`); worker.ts passes none.
 */
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { loadClientConnectConfig } from '@temporalio/envconfig';
import { parseCli, UsageError, workerPorts } from '@vendor-review/worker-io';
import { createActivities } from './activities.ts';
import { WORKFLOWS_PATH } from './paths.ts';
import { startOutboxDrainer } from './outbox-drainer.ts';
import { openStore, setupDatabase } from './postgres-store.ts';
import { installRuntime } from './runtime.ts';
import { traceActivities } from './step-trace.ts';
import {
  MAX_HEARTBEAT_THROTTLE,
  STICKY_SCHEDULE_TO_START_TIMEOUT,
  WORKFLOWS_ON_MAIN_THREAD,
} from './worker-options.ts';

const WORKER_USAGE = `usage: worker.ts   (no options; configured by its environment)
  TEMPORAL_ADDRESS (127.0.0.1:7233), TEMPORAL_NAMESPACE (default), TEMPORAL_API_KEY, TEMPORAL_TLS*,
  TEMPORAL_PROFILE, TEMPORAL_CONFIG_FILE (as for any Temporal client), TASK_QUEUE (vendor-review),
  WORLD_URL (required), DATABASE_URL (the hardened outbox and dead letters), WORKFLOW_BUNDLE
  (a prebuilt workflow bundle), WORKER_NAME, STICKY_SCHEDULE_TO_START_MS, SHUTDOWN_GRACE_MS
  (activities in flight may finish this long after SIGTERM; default 0, the SDK's), TRACE_STEPS (1: print
  every activity as it starts and ends, and every call it makes). Prints WORKER READY once it polls.`;

/** What a caller may lay over the worker: the SDK's own extension points. */
export type WorkerExtensions = Pick<WorkerOptions, 'interceptors'>;

function fail(message: string): never {
  throw new Error(message);
}

/** A whole number of milliseconds from the environment, or a usage error naming the variable. */
function millis(name: string, ms: string): number {
  const n = Number(ms);
  if (!Number.isInteger(n) || n < 0)
    throw new UsageError(`${name} must be a whole number of milliseconds, got "${ms}"`, { seeHelp: false });
  return n;
}

/** STICKY_SCHEDULE_TO_START_MS (a harness sweeping the timeout sets it), else the chosen default. */
function stickyTimeout(ms: string | undefined): number | string {
  if (ms === undefined || ms === '') return STICKY_SCHEDULE_TO_START_TIMEOUT;
  const n = Number(ms);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`STICKY_SCHEDULE_TO_START_MS must be a whole number of milliseconds, got "${ms}"`, {
      seeHelp: false,
    });
  return n;
}

/** Runs the worker until it is asked to stop (SIGTERM, SIGINT); resolves to the process's exit code. */
export async function runWorker(extensions: WorkerExtensions = {}): Promise<number> {
  parseCli({ usage: WORKER_USAGE, options: {} });
  const env = process.env;
  const name = env.WORKER_NAME || `pid-${process.pid}`;
  // The settings a Temporal user already has (profile, TLS, API key), read as the SDK's own clients do.
  const config = loadClientConnectConfig();
  const connectionOptions = {
    ...config.connectionOptions,
    address: config.connectionOptions.address || '127.0.0.1:7233',
  };
  const address = connectionOptions.address;
  const namespace = config.namespace || 'default';
  const taskQueue = env.TASK_QUEUE || 'vendor-review';
  const worldUrl = env.WORLD_URL;
  if (!worldUrl) throw new UsageError('WORLD_URL is not set: point it at the world server (pnpm world prints it)');
  const sticky = stickyTimeout(env.STICKY_SCHEDULE_TO_START_MS);
  // Unset: the SDK's default (0: activities in flight are cancelled as soon as shutdown begins).
  const shutdownGraceMs = env.SHUTDOWN_GRACE_MS ? millis('SHUTDOWN_GRACE_MS', env.SHUTDOWN_GRACE_MS) : undefined;

  installRuntime();

  const store = env.DATABASE_URL ? openStore(env.DATABASE_URL) : undefined;
  if (env.DATABASE_URL)
    await setupDatabase(env.DATABASE_URL).catch((err) =>
      fail(`cannot prepare the outbox tables at DATABASE_URL: ${err.message}`),
    );
  const { ports, trace } = workerPorts(name, { worldUrl }, env);

  const connection = await NativeConnection.connect(connectionOptions).catch((err) =>
    fail(
      `cannot reach the Temporal server at ${address} (${err.message}); start one (temporal server start-dev) or set TEMPORAL_ADDRESS`,
    ),
  );

  const bundlePath = env.WORKFLOW_BUNDLE;
  if (!bundlePath)
    process.stderr.write(
      'worker: WORKFLOW_BUNDLE not set, bundling the workflows now (slow; build it once with the build:bundle script)\n',
    );

  const interceptors = extensions.interceptors ?? {};
  const worker = await Worker.create({
    connection,
    namespace,
    taskQueue,
    identity: `${name}/${process.pid}`,
    ...(bundlePath ? { workflowBundle: { codePath: bundlePath } } : { workflowsPath: WORKFLOWS_PATH }),
    activities: createActivities({ ports, worker: name, store }),
    stickyQueueScheduleToStartTimeout: sticky,
    debugMode: WORKFLOWS_ON_MAIN_THREAD,
    maxHeartbeatThrottleInterval: MAX_HEARTBEAT_THROTTLE,
    defaultHeartbeatThrottleInterval: MAX_HEARTBEAT_THROTTLE,
    ...(shutdownGraceMs === undefined ? {} : { shutdownGraceTime: shutdownGraceMs }),
    // The trace sees each attempt first, so its last line names the step a caller's interceptor stopped.
    interceptors: {
      ...interceptors,
      activity: [...(trace ? [traceActivities(trace)] : []), ...(interceptors.activity ?? [])],
    },
  });

  const drainer = store ? startOutboxDrainer({ store, ports, worker: name, taskQueue }) : undefined;
  // SIGTERM/SIGINT: the Runtime asks the worker to shut down (finish in-flight tasks within the
  // grace time); run() then resolves and we close the drainer and the pool.
  const running = worker.run();
  process.stdout.write(
    `WORKER READY name=${name} pid=${process.pid} taskQueue=${taskQueue} startMs=${Math.round(performance.now())} bundle=${bundlePath ? 'prebuilt' : 'built-at-start'}\n`,
  );
  try {
    await running;
  } finally {
    await drainer?.stop();
    await store?.close();
    await connection.close();
  }
  process.stdout.write(`WORKER STOPPED name=${name} pid=${process.pid}\n`);
  return 0;
}
