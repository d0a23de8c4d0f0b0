/**
 * A Temporal worker inside the calling process, set up as worker.ts sets up its own (the same
 * activities, outbox drainer, sticky queue and heartbeat throttle), plus the bare workflows'
 * no-op activity. The benchmark times steps in-process this way, with the worker's start kept out
 * of the step figures and reported on its own.
 */
import { NativeConnection, Worker } from '@temporalio/worker';
import type { Ports } from '@vendor-review/pipeline';
import type { TemporalConnectionOptions } from '../server/config.ts';
import { createActivities } from '../../src/activities.ts';
import { startOutboxDrainer } from '../../src/outbox-drainer.ts';
import { openStore } from '../../src/postgres-store.ts';
import { installRuntime } from '../../src/runtime.ts';
import {
  MAX_HEARTBEAT_THROTTLE,
  STICKY_SCHEDULE_TO_START_TIMEOUT,
  WORKFLOWS_ON_MAIN_THREAD,
} from '../../src/worker-options.ts';
import { bareActivities } from './bare-activities.ts';

export interface InProcessWorker {
  taskQueue: string;
  /** From Worker.create to polling. */
  startMs: number;
  stop(): Promise<void>;
}

export async function startInProcessWorker(o: {
  connection: TemporalConnectionOptions;
  namespace: string;
  taskQueue: string;
  bundlePath: string;
  ports: Ports;
  /** The hardened outbox and dead letters; without it only naive and bare runs work. */
  databaseUrl?: string;
  name: string;
  /** What the worker runs instead of the real activities (recording or replaying them); default: them. */
  activities?: (real: object) => object;
}): Promise<InProcessWorker> {
  installRuntime();
  const started = performance.now();
  const store = o.databaseUrl ? openStore(o.databaseUrl) : undefined;
  const connection = await NativeConnection.connect(o.connection);
  const worker = await Worker.create({
    connection,
    namespace: o.namespace,
    taskQueue: o.taskQueue,
    identity: `${o.name}/${process.pid}`,
    workflowBundle: { codePath: o.bundlePath },
    activities: {
      ...(o.activities ?? ((a: object) => a))(createActivities({ ports: o.ports, worker: o.name, store })),
      ...bareActivities,
    },
    stickyQueueScheduleToStartTimeout: STICKY_SCHEDULE_TO_START_TIMEOUT,
    debugMode: WORKFLOWS_ON_MAIN_THREAD,
    maxHeartbeatThrottleInterval: MAX_HEARTBEAT_THROTTLE,
    defaultHeartbeatThrottleInterval: MAX_HEARTBEAT_THROTTLE,
  });
  const drainer = store ? startOutboxDrainer({ store, ports: o.ports, worker: o.name, taskQueue: o.taskQueue }) : null;
  const running = worker.run();
  const startMs = performance.now() - started;
  return {
    taskQueue: o.taskQueue,
    startMs,
    async stop() {
      worker.shutdown();
      await running;
      await drainer?.stop();
      await store?.close();
      await connection.close();
    },
  };
}
