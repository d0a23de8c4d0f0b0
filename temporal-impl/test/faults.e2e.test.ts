/**
 * Retry policy against the real world's injected faults: one long-lived worker process, one run
 * per case, each fault scoped to its run id.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { newRunId, retryRuleFor, type ReviewRequestInput, type Variant } from '@vendor-review/pipeline';
import { vendorRequest } from '@vendor-review/world';
import { approveRun, getRun, openStore, startRun, waitForRun, workflowIdFor, type Store } from '../src/index.ts';
import { startTestEnvironment, taskQueueFor, type TestEnvironment } from './support/environment.ts';
import type { WorkerProcess } from '@vendor-review/testbed';
import { ready, startWorkerProcess } from './support/worker-process.ts';

const bundlePath = inject('workflowBundle');
let env: TestEnvironment;
let worker: WorkerProcess;
let store: Store;
let taskQueue: string;
let request: ReviewRequestInput;

beforeAll(async () => {
  env = await startTestEnvironment();
  taskQueue = taskQueueFor('faults');
  worker = startWorkerProcess('F', {
    address: env.temporal.address,
    taskQueue,
    worldUrl: env.world.url,
    databaseUrl: env.db.url,
    bundlePath,
  });
  store = openStore(env.db.url);
  const full = vendorRequest('borealis-crm', env.world.url);
  request = { ...full, requirements: full.requirements.filter((r) => r.id === 'sso') };
  await ready(worker);
});

afterAll(async () => {
  await worker?.stop();
  await store?.close();
  await env?.stop();
});

/** Start a run, approving it whenever it asks, until it ends. */
async function runToEnd(variant: Variant, runId: string, req: unknown = request) {
  await startRun({ client: env.client, taskQueue, request: req as ReviewRequestInput, variant, runId });
  for (;;) {
    const view = await waitForRun({
      client: env.client,
      runId,
      until: ['completed', 'failed', 'awaiting-approval'],
      timeoutMs: 120_000,
      queryState: false,
    });
    if (view.status !== 'awaiting-approval') return getRun({ client: env.client, runId });
    await approveRun({ client: env.client, runId, approved: true, by: 'reviewer@example.com' });
  }
}

describe.concurrent('faults', () => {
  it('hardened: a permanent fault (tracker 422) goes to the dead letter after one attempt and the run ends failed', async () => {
    const runId = newRunId('perm');
    env.world.addFault({ route: 'tracker', kind: '422', times: 'forever', runId });
    const view = await runToEnd('hardened', runId);
    expect(view.status).toBe('failed');
    const tracker = env.world.ledger({ runId, kind: 'tracker' });
    expect(tracker.map((e) => e.outcome)).toEqual(['fault']);
    const [letter, ...more] = await store.deadLetters(runId);
    expect(more).toEqual([]);
    expect(letter).toMatchObject({
      step: 'SAVE_PROGRESS',
      attempts: 1,
      run: { runId, workflowId: workflowIdFor(runId) },
    });
    expect(letter!.error).toMatch(/PermanentError/);
    expect(letter!.input).toMatchObject({ runId, current: { requirementId: 'sso' } });
    expect(view.state?.failure).toMatchObject({ step: 'SAVE_PROGRESS', attempts: 1 });
    expect(view.state?.delivery).toBeNull();
  });

  it('hardened: an invalid request fails VALIDATE once, with every problem named, into the dead letter', async () => {
    const runId = newRunId('invalid');
    const view = await runToEnd('hardened', runId, { ...request, requester: { name: '', email: 'not-an-email' } });
    expect(view.status).toBe('failed');
    const [letter] = await store.deadLetters(runId);
    expect(letter).toMatchObject({ step: 'VALIDATE', attempts: 1 });
    expect(letter!.error).toMatch(/requester\.email/);
    expect(env.world.ledger({ runId })).toEqual([]);
  });

  it('hardened: a transient fault that clears (two 503s on the vendor site) is retried and the run succeeds', async () => {
    const runId = newRunId('transient');
    env.world.addFault({ route: 'web', kind: '503', times: 2, runId });
    const view = await runToEnd('hardened', runId);
    expect(view.status).toBe('completed');
    const web = env.world.ledger({ runId, kind: 'web' });
    expect(web.slice(0, 3).map((e) => [e.outcome, e.attempt])).toEqual([
      ['fault', 1],
      ['fault', 2],
      ['ok', 3],
    ]);
    expect(await store.deadLetters(runId)).toEqual([]);
    expect(env.world.outbox(runId)).toHaveLength(1);
  });

  it('hardened: a transient fault that never clears stops at the cap and is dead-lettered', async () => {
    const runId = newRunId('capped');
    env.world.addFault({ route: 'web', kind: '503', times: 'forever', runId });
    const view = await runToEnd('hardened', runId);
    expect(view.status).toBe('failed');
    expect(env.world.ledger({ runId, kind: 'web' })).toHaveLength(retryRuleFor('page').maxAttempts);
    const [letter] = await store.deadLetters(runId);
    expect(letter).toMatchObject({ step: 'DISCOVER', attempts: retryRuleFor('page').maxAttempts });
  });

  it('naive: a fault that never clears keeps retrying past any cap: the run looks stuck, not failed', async () => {
    const runId = newRunId('stuck');
    // A 404 on the sitemap: permanent, yet the naive policy retries it like any other error.
    env.world.addFault({ route: 'web', kind: '404', times: 'forever', runId });
    await startRun({ client: env.client, taskQueue, request, variant: 'naive', runId });
    const bound = retryRuleFor('page').maxAttempts + 1;
    const started = Date.now();
    // The SDK default policy: 1s, 2s, 4s, 8s… between attempts, forever, even for a 404.
    while (env.world.ledger({ runId, kind: 'web' }).length < bound) {
      expect(Date.now() - started, 'attempts stopped growing').toBeLessThan(60_000);
      await new Promise((r) => setTimeout(r, 500));
    }
    const attempts = env.world.ledger({ runId, kind: 'web' }).map((e) => e.attempt);
    expect(attempts).toEqual(Array.from({ length: attempts.length }, (_, i) => i + 1));
    const view = await getRun({ client: env.client, runId, queryState: false });
    expect(view.status).toBe('running');
    expect(await store.deadLetters(runId)).toEqual([]);
    const described = await env.client.workflow.getHandle(workflowIdFor(runId)).describe();
    const pending = described.raw.pendingActivities?.[0];
    expect(pending?.activityType?.name).toBe('discover');
    expect(pending?.attempt).toBeGreaterThanOrEqual(bound);
    process.stdout.write(
      `naive looks stuck: ${attempts.length} attempts at a permanent 404 in ${Date.now() - started}ms, still running, no dead letter\n`,
    );
    await env.client.workflow.getHandle(workflowIdFor(runId)).terminate('test over: naive run would retry forever');
  });
});

describe('shutdown', () => {
  it('SIGTERM stops the worker gracefully (exit code 0, drainer and pool closed)', async () => {
    // Longer than the worker's own shutdown grace time, so a slow but graceful stop is not cut short.
    const exit = await worker.stop(30_000);
    expect(exit).toMatchObject({ exitCode: 0, signal: null, crash: null });
    expect(worker.output()).toMatch(/WORKER STOPPED name=F/);
  });
});
