import type { ReviewRequestInput } from '@vendor-review/domain';
import type { BenchContext } from './context.ts';

/**
 * The in-process Temporal workers the per-step, unit and storage figures run on, each on a task
 * queue of its own: the bench worker (the real activities, and the bare workflows' no-op), and the
 * replay worker (activities that hand back what a real run returned, see replay-activities.ts).
 */
export interface BenchWorker {
  taskQueue: string;
  startMs: number;
  stop(): Promise<void>;
}

async function start(
  ctx: BenchContext,
  name: string,
  activities?: (real: object) => object,
): Promise<BenchWorker | null> {
  const temporal = ctx.infra.temporal;
  if (!ctx.tm || !temporal) return null;
  const { startInProcessWorker } = await import('@vendor-review/temporal/bench');
  const taskQueue = `bench-${name}-${process.pid}-${Date.now()}`;
  const w = await startInProcessWorker({
    connection: temporal.connection,
    namespace: temporal.namespace,
    taskQueue,
    bundlePath: ctx.tm.benchBundlePath,
    ports: ctx.ports,
    databaseUrl: ctx.infra.databaseUrl,
    name,
    ...(activities ? { activities } : {}),
  });
  ctx.log(`bench: in-process Temporal worker (${name}) polling ${taskQueue} after ${Math.round(w.startMs)} ms`);
  return { taskQueue, startMs: w.startMs, stop: () => w.stop() };
}

export function startBenchWorker(ctx: BenchContext): Promise<BenchWorker | null> {
  return start(ctx, 'bench');
}

/** Records one naive and one hardened review of `request`, then serves the recording back. */
export async function startReplayWorker(ctx: BenchContext, request: ReviewRequestInput): Promise<BenchWorker | null> {
  if (!ctx.tm) return null;
  const tmb = await import('@vendor-review/temporal/bench');
  const { temporalRun } = await import('./in-process.ts');
  let recording: Map<string, unknown> | null = null;
  const recorder = await start(ctx, 'record', (real) => {
    const r = tmb.recordingActivities(real);
    recording = r.recording;
    return r.activities;
  });
  if (!recorder) return null;
  try {
    for (const variant of ['naive', 'hardened'] as const) {
      const run = await temporalRun(ctx, recorder.taskQueue, request, variant);
      if (!run.ok)
        throw new Error(`recording a ${variant} review for the replay failed: ${run.note ?? 'did not complete'}`);
    }
  } finally {
    await recorder.stop();
  }
  const rec = recording as Map<string, unknown> | null;
  if (!rec) throw new Error('the recording worker recorded nothing');
  return start(ctx, 'replay', (real) => tmb.replayingActivities(real, rec));
}
