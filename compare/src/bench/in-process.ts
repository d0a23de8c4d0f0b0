import { randomUUID } from 'node:crypto';
import { runPlain, type Durability, type ReviewRequestInput, type Variant } from '@vendor-review/domain';
import type { replayingSteps } from '@vendor-review/langgraph/bench';
import type { BenchContext } from './context.ts';

/**
 * One review (or one bare run) executed in this process, timed from its creation to its end: the
 * building block of the per-step and storage figures. No worker process is started here.
 */
export interface InProcessRun {
  ms: number;
  ok: boolean;
  /** LangGraph: the thread; Temporal: the workflow id. */
  id: string;
  note?: string;
}

export type LangGraphMode = { saver: 'memory' | 'postgres'; durability: Durability; variant: Variant };

async function timed(id: string, body: () => Promise<boolean>): Promise<InProcessRun> {
  const t = performance.now();
  try {
    const ok = await body();
    return { ms: performance.now() - t, ok, id };
  } catch (err) {
    return { ms: performance.now() - t, ok: false, id, note: err instanceof Error ? err.message : String(err) };
  }
}

export function plainRun(ctx: BenchContext, request: ReviewRequestInput): Promise<InProcessRun> {
  return timed('plain', async () => !(await runPlain(request, ctx.ports, { worker: 'bench' })).failed);
}

/** A review as a worker executes it (executeRun); with `steps`, the recorded steps instead of the real ones. */
export async function langGraphRun(
  ctx: BenchContext,
  request: ReviewRequestInput,
  m: LangGraphMode,
  steps?: Steps,
): Promise<InProcessRun> {
  const { runReviewInProcess } = await import('@vendor-review/langgraph/bench');
  const t = performance.now();
  try {
    const r = await runReviewInProcess({
      pool: ctx.lg!.pool,
      ports: ctx.ports,
      request,
      variant: m.variant,
      durability: m.durability,
      checkpointer: m.saver,
      ...(steps ? { steps } : {}),
    });
    return { ms: performance.now() - t, ok: r.outcome.status === 'completed', id: r.threadId };
  } catch (err) {
    return { ms: performance.now() - t, ok: false, id: '', note: err instanceof Error ? err.message : String(err) };
  }
}

export async function bareGraphRun(
  ctx: BenchContext,
  o: { saver: 'memory' | 'postgres'; durability: Durability; requirements: number; pages: number },
): Promise<InProcessRun> {
  const { bareSaver, runBareGraph } = await import('@vendor-review/langgraph/bench');
  const threadId = randomUUID();
  return timed(threadId, async () => {
    const steps = await runBareGraph({
      checkpointer: bareSaver(o.saver, ctx.lg!.pool),
      threadId,
      requirements: o.requirements,
      pages: o.pages,
      durability: o.durability,
    });
    return steps > 0;
  });
}

type Steps = ReturnType<typeof replayingSteps>;

/** Records the steps of one review through our graph (in memory), for the replayed runs. */
export async function recordLangGraphSteps(ctx: BenchContext, request: ReviewRequestInput): Promise<Steps> {
  const lgb = await import('@vendor-review/langgraph/bench');
  const { steps, recording } = lgb.recordingSteps();
  await lgb.runGraphDirect({
    checkpointer: lgb.bareSaver('memory', null),
    steps,
    request,
    durability: 'sync',
    threadId: randomUUID(),
    ports: ctx.ports,
  });
  return lgb.replayingSteps(recording);
}

/** Our graph on a stock saver with the steps replayed: LangGraph carrying our state, none of our code around it. */
export async function replayGraphRun(
  ctx: BenchContext,
  request: ReviewRequestInput,
  o: { saver: 'memory' | 'postgres'; durability: Durability; steps: Steps },
): Promise<InProcessRun> {
  const lgb = await import('@vendor-review/langgraph/bench');
  const threadId = randomUUID();
  return timed(threadId, async () => {
    const final = await lgb.runGraphDirect({
      checkpointer: lgb.bareSaver(o.saver, ctx.lg!.pool),
      steps: o.steps,
      request,
      durability: o.durability,
      threadId,
    });
    return final.delivery !== null;
  });
}

export async function temporalRun(
  ctx: BenchContext,
  taskQueue: string,
  request: ReviewRequestInput,
  variant: Variant,
): Promise<InProcessRun> {
  const tm = await import('@vendor-review/temporal');
  const client = ctx.tm!.client;
  const t = performance.now();
  try {
    const { runId, workflowId } = await tm.startRun({ client, taskQueue, request, variant });
    // Recorded at once, as a person who approves at the first glance: the wait is not the runtime's cost.
    await tm.approveRun({ client, runId, approved: true, by: 'bench' });
    await client.workflow.getHandle(workflowId).result();
    return { ms: performance.now() - t, ok: true, id: workflowId };
  } catch (err) {
    return { ms: performance.now() - t, ok: false, id: '', note: err instanceof Error ? err.message : String(err) };
  }
}

export async function bareWorkflowRun(
  ctx: BenchContext,
  taskQueue: string,
  o: { requirements: number; pages: number },
): Promise<InProcessRun> {
  const client = ctx.tm!.client;
  const workflowId = `bench-bare-${randomUUID()}`;
  return timed(workflowId, async () => {
    const handle = await client.workflow.start('bareReview', { taskQueue, workflowId, args: [o] });
    await handle.signal('approve', { approved: true, by: 'bench' });
    return (await handle.result()) > 0;
  });
}
