/**
 * What `pnpm bench` measures of Temporal, and how (the contract: RuntimeBench in
 * @vendor-review/conformance). Its overheads are stated in no-op activities, measured here;
 * the in-process sections run on workers inside the bench's process (in-process-worker.ts), the
 * others on the worker processes its runtime module starts.
 */
import { Client, Connection } from '@temporalio/client';
import {
  connectionTo,
  type BenchEnv,
  type RuntimeBench,
  type InProcessBench,
  type StartedRuntime,
  type StorageLimits,
} from '@vendor-review/conformance';
import type { Variant } from '@vendor-review/pipeline';
import type { RunHandle, WorkerSpec } from '@vendor-review/conformance';
import { approveRun, startRun } from '../../src/client.ts';
import { setupDatabase } from '../../src/postgres-store.ts';
import { cachedBenchBundle } from './bundle.ts';
import { historyFigures } from './history-figures.ts';
import { startInProcessWorker, type InProcessWorker } from './in-process-worker.ts';
import { perStepConfigs, reviewRun } from './per-step.ts';
import { recordingActivities, replayingActivities } from './replay-activities.ts';
import { measureActivity } from './unit.ts';
import { TEMPORAL_SERVER, type TemporalServer } from '../server/spec.ts';

/** What the server refuses: one payload past 2 MB, a history past 50 MB or 51,200 events. */
export const TEMPORAL_LIMITS: StorageLimits = {
  historyBytes: 50 * 1024 * 1024,
  historyEvents: 51_200,
  payloadBytes: 2 * 1024 * 1024,
};

async function connect(temporal: TemporalServer): Promise<{ client: Client; close(): Promise<void> }> {
  const connection = await Connection.connect(temporal.connection as Parameters<typeof Connection.connect>[0]);
  return { client: new Client({ connection, namespace: temporal.namespace }), close: () => connection.close() };
}

async function inProcess(env: BenchEnv): Promise<InProcessBench> {
  const temporal = connectionTo(env.servers, TEMPORAL_SERVER);
  const { client, close } = await connect(connectionTo(env.servers, TEMPORAL_SERVER));
  const workers: InProcessWorker[] = [];
  const closeAll = async () => {
    for (const w of workers.reverse()) await w.stop().catch(() => undefined);
    await close();
  };
  try {
    env.log('bench: Temporal bench workflow bundle (cached after the first build)…');
    const bundle = await cachedBenchBundle();
    if (!bundle.cached) env.log(`bench: bench workflow bundle built in ${(bundle.ms / 1000).toFixed(1)} s`);
    // Each on a task queue of its own: the real activities (and the bare workflows' no-op), a
    // recorder of them, and a replayer of the recording.
    const start = async (name: string, activities?: (real: object) => object) => {
      const taskQueue = `bench-${name}-${process.pid}-${Date.now()}`;
      const w = await startInProcessWorker({
        connection: temporal.connection,
        namespace: temporal.namespace,
        taskQueue,
        bundlePath: bundle.path,
        ports: env.ports,
        databaseUrl: env.databaseUrl,
        name,
        ...(activities ? { activities } : {}),
      });
      workers.push(w);
      env.log(`bench: in-process Temporal worker (${name}) polling ${taskQueue} after ${Math.round(w.startMs)} ms`);
      return w;
    };
    const bench = await start('bench');
    return {
      workerStartMs: bench.startMs,
      async measureUnit() {
        const m = await measureActivity(client, bench.taskQueue, env.preset);
        return {
          us: m.us,
          parts: [{ label: 'of which a workflow task waits, scheduled → started', us: m.dispatchUs }],
        };
      },
      // One naive and one hardened review recorded first, then served back by the replayer.
      async perStep({ request, shape }) {
        let recording: Map<string, unknown> | null = null;
        const recorder = await start('record', (real) => {
          const r = recordingActivities(real);
          recording = r.recording;
          return r.activities;
        });
        try {
          for (const variant of ['naive', 'hardened'] as const) {
            const run = await reviewRun(client, recorder.taskQueue, request, variant);
            if (!run.ok)
              throw new Error(`recording a ${variant} review for the replay failed: ${run.note ?? 'did not complete'}`);
          }
        } finally {
          await recorder.stop();
          workers.splice(workers.indexOf(recorder), 1);
        }
        const rec = recording as Map<string, unknown> | null;
        if (!rec) throw new Error('the recording worker recorded nothing');
        const replay = await start('replay', (real) => replayingActivities(real, rec));
        return perStepConfigs(client, { bench: bench.taskQueue, replay: replay.taskQueue }, request, shape);
      },
      storage: {
        modes: ['naive', 'hardened'],
        how: "the history's size as the server counts it",
        limits: TEMPORAL_LIMITS,
        async measure(mode, request) {
          const run = await reviewRun(client, bench.taskQueue, request, mode as Variant);
          const h = await historyFigures(client, run.id);
          return {
            ok: run.ok,
            bytes: h.bytes,
            events: h.events,
            largestPayloadBytes: h.largestPayloadBytes,
            activityInputBytes: h.activityInputBytes,
          };
        },
      },
      close: closeAll,
    };
  } catch (err) {
    await closeAll();
    throw err;
  }
}

/** The worker spec any run of `taskQueue` gets: the module's own worker, serving that queue. */
function queueWorker(started: StartedRuntime, taskQueue: string, variant: Variant, name: string): WorkerSpec {
  const anyRun = { runId: 'bench', taskQueue, config: { variant, durability: null } } as unknown as RunHandle;
  return started.adapter.workerSpec(anyRun, { name, crashPlan: null });
}

export const bench: RuntimeBench = {
  unit: {
    id: 'activity',
    label: 'one Temporal no-op activity (with its workflow task)',
    one: 'one no-op activity',
    plural: 'activities',
  },

  inProcess,

  throughput: {
    ready: /WORKER READY/,
    // The workers poll a queue of the cell's own; the reviews start once every one is ready.
    async prepare({ env, started, databaseUrl, request, variant, concurrency, processes }) {
      await setupDatabase(databaseUrl);
      const taskQueue = `bench-tp-${process.pid}-${Date.now()}`;
      const template = queueWorker(started, taskQueue, variant, 'T');
      const spec = {
        ...template,
        env: { ...template.env, ...(variant === 'hardened' ? { DATABASE_URL: databaseUrl } : {}) },
      };
      const out = {
        runIds: [] as string[],
        completed: 0,
        lastCompletedAt: null as number | null,
        historyEvents: 0,
        failures: [] as string[],
      };
      return {
        workers: Array.from({ length: processes }, () => spec),
        async drive({ ready }) {
          await ready;
          const { client, close } = await connect(connectionTo(env.servers, TEMPORAL_SERVER));
          try {
            const runs = await Promise.all(
              Array.from({ length: concurrency }, async () => {
                const s = await startRun({ client, taskQueue, request, variant });
                await approveRun({ client, runId: s.runId, approved: true, by: 'bench' });
                return s;
              }),
            );
            out.runIds = runs.map((s) => s.runId);
            const results = await Promise.allSettled(runs.map((s) => client.workflow.getHandle(s.workflowId).result()));
            out.completed = results.filter((r) => r.status === 'fulfilled').length;
            for (const r of results) if (r.status === 'rejected') out.failures.push(String(r.reason).slice(0, 160));
            const figs = await Promise.all(runs.map((s) => historyFigures(client, s.workflowId)));
            out.historyEvents = figs.reduce((n, f) => n + f.events, 0);
            const closed = figs.map((f) => f.closedAt).filter((x): x is number => x !== null);
            out.lastCompletedAt = closed.length ? Math.max(...closed) : null;
          } finally {
            await close();
          }
        },
        outcome: async () => out,
      };
    },
  },

  recovery: {
    knobs: [
      {
        name: 'heartbeatTimeoutMs',
        label: 'heartbeat timeout',
        phrase: 'a heartbeat timeout',
        crashPoint: 'after-model',
        values: { smoke: [1000], quick: [1000, 2000], full: [1000, 2000, 5000, 10_000] },
        loaded: { smoke: [], quick: [500, 1000], full: [500, 1000, 2000] },
      },
      {
        // A kill while the run waits for its approval: the signal then finds the dead worker's sticky queue.
        name: 'stickyScheduleToStartMs',
        label: 'sticky schedule-to-start',
        phrase: 'a sticky schedule-to-start timeout',
        crashPoint: 'awaiting-approval',
        values: { smoke: [], quick: [1000], full: [1000, 5000, 10_000] },
        loaded: { smoke: [], quick: [], full: [] },
      },
    ],
    // A live worker loses an attempt when the server gives up on it for want of a heartbeat.
    async loaded({ env, started, knob, value, runs, request }) {
      if (knob !== 'heartbeatTimeoutMs') throw new Error(`no loaded runs for ${knob}`);
      const { WorkerProcess } = await import('@vendor-review/testbed');
      const taskQueue = `bench-load-${process.pid}-${Date.now()}`;
      const worker = new WorkerProcess('L', queueWorker(started, taskQueue, 'hardened', 'L'));
      const { client, close } = await connect(connectionTo(env.servers, TEMPORAL_SERVER));
      const failed: string[] = [];
      let lost = 0;
      let attempts = 0;
      try {
        await worker.waitForLine(/WORKER READY/, 120_000);
        const begun = await Promise.all(
          Array.from({ length: runs }, async () => {
            const s = await startRun({
              client,
              taskQueue,
              request,
              variant: 'hardened',
              timeouts: { heartbeatMs: value },
            });
            await approveRun({ client, runId: s.runId, approved: true, by: 'bench' });
            return s;
          }),
        );
        const results = await Promise.allSettled(begun.map((s) => client.workflow.getHandle(s.workflowId).result()));
        for (const r of results) if (r.status === 'rejected') failed.push(String(r.reason).slice(0, 160));
        for (const s of begun) {
          const h = await historyFigures(client, s.workflowId);
          attempts += h.heartbeatTimeouts;
          if (h.heartbeatTimeouts > 0) lost++;
        }
      } finally {
        await worker.stop(5000);
        await close();
      }
      return { lost, timedOutAttempts: attempts, failed };
    },
  },
};
