import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { timedRun, type BareShape, type PerStepConfig, type TimedRun } from '@vendor-review/conformance';
import type { ReviewRequestInput, Variant } from '@vendor-review/pipeline';
import { approveRun, startRun } from '../../src/client.ts';

/** A review on `taskQueue`, approved at once (a person who approves at first glance: the wait is not the runtime's cost). */
export function reviewRun(
  client: Client,
  taskQueue: string,
  request: ReviewRequestInput,
  variant: Variant,
): Promise<TimedRun> {
  return timedRun(async () => {
    const { runId, workflowId } = await startRun({ client, taskQueue, request, variant });
    await approveRun({ client, runId, approved: true, by: 'bench' });
    await client.workflow.getHandle(workflowId).result();
    return { ok: true, id: workflowId };
  });
}

/** The bare workflow (bare-workflow.ts) of the review's shape. */
function bareRun(client: Client, taskQueue: string, shape: BareShape): Promise<TimedRun> {
  const workflowId = `bench-bare-${randomUUID()}`;
  return timedRun(async () => {
    const handle = await client.workflow.start('bareReview', { taskQueue, workflowId, args: [shape] });
    await handle.signal('approve', { approved: true, by: 'bench' });
    return { ok: (await handle.result()) > 0, id: workflowId };
  }, workflowId);
}

/**
 * Temporal bare (no-op activities), then per variant our workflow on replayed activities (Temporal
 * carrying our arguments) and the review. Its activities cannot run recorded steps inside our
 * wrappers, so our code's share is the review less the floor against the replay.
 */
export function perStepConfigs(
  client: Client,
  queues: { bench: string; replay: string },
  request: ReviewRequestInput,
  shape: BareShape,
): PerStepConfig[] {
  const out: PerStepConfig[] = [
    {
      mode: 'bare',
      label: 'Temporal bare (no-op activities)',
      kind: 'bare',
      bare: null,
      replay: null,
      run: () => bareRun(client, queues.bench, shape),
    },
  ];
  for (const variant of ['naive', 'hardened'] as const)
    out.push(
      {
        mode: `replay-${variant}`,
        label: `Temporal on our ${variant === 'naive' ? 'whole-state' : 'sliced'} arguments (activities replayed)`,
        kind: 'replay',
        bare: 'bare',
        replay: null,
        run: () => reviewRun(client, queues.replay, request, variant),
      },
      {
        mode: variant,
        label:
          variant === 'naive'
            ? 'Temporal naive (whole state per activity)'
            : 'Temporal hardened (state slices, outbox, capped retries)',
        kind: 'review',
        bare: 'bare',
        replay: `replay-${variant}`,
        ourCode: true,
        finding: variant === 'naive' ? 'Temporal naive' : 'hardened',
        run: () => reviewRun(client, queues.bench, request, variant),
      },
    );
  return out;
}
