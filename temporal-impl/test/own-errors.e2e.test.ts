/**
 * The retry rule's promise, in the shape a chaos campaign broke it (issue 40): a lost machine never
 * spends the cap of a step's own errors, also when PostgreSQL, where the activity counts them, is
 * down as an own error comes back. EXTRACT's model call answers 503, stalls three times (two
 * workers SIGKILLed inside the stall, a third SIGSTOPped there past the heartbeat timeout), then
 * answers 503 once more while the embedded PostgreSQL is restarting, then answers. Two own errors,
 * below the cap; the server's attempt number, which counts every lost worker, is past it.
 *
 * Real parts throughout: a dev server, worker processes, the world over HTTP, a PostgreSQL of its
 * own that the test restarts. Every wait is for something the server, the world or the database
 * shows, never for time to pass.
 */
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { ownErrorsOfStep } from '@vendor-review/conformance';
import { newRunId, retryRuleFor, stepKindOf, type ReviewRequestInput } from '@vendor-review/pipeline';
import type { WorkerProcess } from '@vendor-review/testbed';
import { vendorRequest } from '@vendor-review/world';
import { approveRun, openStore, startRun, waitForRun, workflowIdFor, type Store } from '../src/index.ts';
import { readHistory } from '../harness/index.ts';
import { startTestEnvironment, taskQueueFor, type TestEnvironment } from './support/environment.ts';
import { ready, startWorkerProcess } from './support/worker-process.ts';

const STEP = 'EXTRACT';
const KILLS = 2;
// Long enough that a worker is still inside the call when it is killed or frozen, below the model port's own timeout.
const STALL_MS = 30_000;
const BOUND_MS = 180_000;

const bundlePath = inject('workflowBundle');
let env: TestEnvironment;
let store: Store;
let request: ReviewRequestInput;
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  env = await startTestEnvironment({ restartable: true });
  store = openStore(env.db.url);
  const full = vendorRequest('acme-analytics', env.world.url);
  request = { ...full, requirements: full.requirements.slice(0, 1) };
});

afterAll(async () => {
  await Promise.all(workers.map((w) => w.kill()));
  await store?.close();
  await env?.stop();
});

async function until(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + BOUND_MS; !(await check());) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

it('a run whose workers are killed and frozen mid-call completes although PostgreSQL is down when its second own 503 comes back (issue 40)', async () => {
  const cap = retryRuleFor(stepKindOf(STEP)).maxAttempts;
  const taskQueue = taskQueueFor('own-errors');
  const runId = newRunId('own-errors');
  const activityId = `${STEP}:${request.requirements[0]!.id}`;
  const scope = { route: 'model', runId, step: STEP } as const;
  // The fault book serves the first live rule: a 503, three stalls, a 503, then answers.
  env.world.addFault({ ...scope, kind: '503', times: 1 });
  const stall = env.world.addFault({ ...scope, kind: 'slow', times: KILLS + 1, delayMs: STALL_MS });
  env.world.addFault({ ...scope, kind: '503', times: 1 });
  const own503s = () => env.world.ledger({ runId }).filter((e) => e.step === STEP && e.fault === '503');

  const start = async (name: string) => {
    const w = startWorkerProcess(name, {
      address: env.temporal.address,
      taskQueue,
      worldUrl: env.world.url,
      databaseUrl: env.db.url,
      bundlePath,
    });
    workers.push(w);
    await ready(w);
    return w;
  };
  /** The step's attempt the server has pending (null once it is not), and the worker it handed it to. */
  const pending = async () => {
    const { raw } = await env.client.workflow.getHandle(workflowIdFor(runId)).describe();
    const a = raw.pendingActivities?.find((p) => p.activityId === activityId);
    return a ? { attempt: a.attempt ?? 1, worker: a.lastWorkerIdentity ?? '' } : null;
  };

  let w = await start('B');
  await startRun({ client: env.client, taskQueue, request, variant: 'hardened', runId });
  for (let kill = 1; kill <= KILLS; kill++) {
    await until(`stall ${kill} to begin`, () => stall.fired >= kill);
    await w.kill();
    w = await start(String.fromCharCode('B'.charCodeAt(0) + kill));
  }
  // A second worker polls before the outage (a worker cannot start while PostgreSQL is down: it
  // prepares its tables), so the attempts after the freeze have somewhere to run.
  const spare = await start('E');
  await until('the last stall to begin', () => stall.fired > KILLS);
  const inStall = (await pending())?.worker;
  const frozen = [w, spare].find((x) => inStall === `${x.life.name}/${x.pid}`);
  if (!frozen) throw new Error(`the stalled attempt is on ${inStall}, not on a worker this test started`);

  let down = { from: 0, to: 0 };
  // Ours to restart: the environment's embedded PostgreSQL (restartable), whatever DATABASE_URL says.
  await env.postgres!.restart!({
    whileDown: async () => {
      down = { from: Date.now(), to: 0 };
      frozen.signal('SIGSTOP');
      await until('the step’s second 503', () => own503s().length >= 2);
      const met = own503s()[1]!.attempt ?? 0;
      await until('the attempt that met it to end on the server', async () => {
        const now = await pending();
        return now === null || now.attempt > met;
      });
      down.to = Date.now();
    },
  });
  frozen.signal('SIGCONT');

  let view = await waitForRun({
    client: env.client,
    runId,
    until: ['awaiting-approval', 'completed', 'failed'],
    timeoutMs: BOUND_MS,
    queryState: false,
  });
  if (view.status === 'awaiting-approval') {
    await approveRun({ client: env.client, runId, approved: true, by: 'reviewer@example.com' });
    view = await waitForRun({ client: env.client, runId, timeoutMs: BOUND_MS, queryState: false });
  }

  // The shape the test claims: own errors below the cap in the ledger, the second one served while
  // PostgreSQL was down, two workers killed mid-call, and the server's attempts past the cap.
  const ledger = env.world.ledger({ runId });
  expect(ownErrorsOfStep(ledger, STEP)).toEqual({ count: 2, permanent: false });
  const second503 = own503s()[1]!;
  expect(second503.at).toBeGreaterThanOrEqual(down.from);
  expect(second503.at).toBeLessThanOrEqual(down.to);
  expect(workers.slice(0, KILLS).map((k) => k.life.signal)).toEqual(['SIGKILL', 'SIGKILL']);
  const started = (await readHistory({ client: env.client, runId })).filter(
    (e) => e.eventType === 'ActivityTaskStarted' && e.activityId === activityId,
  );
  expect(Math.max(...started.map((e) => e.attempt ?? 0))).toBeGreaterThan(cap);

  // The verdict: the lost machines and the outage spent nothing; the run completed, no dead letter.
  const deadLetters = (await store.deadLetters(runId)).map((d) => `${d.step} after ${d.attempts}: ${d.error}`);
  expect({ status: view.status, deadLetters }).toEqual({ status: 'completed', deadLetters: [] });
  expect(env.world.outbox(runId)).toHaveLength(1);
});
