/**
 * The worker a team deploys (src/worker.ts) runs every review a client enqueues, as a deployed one
 * does: one process, two runs of different variants enqueued and approved through DBOS's own
 * client (src/client.ts), each mailed once. Then SIGTERM ends it.
 */
import { fileURLToPath } from 'node:url';
import { DBOSClient } from '@dbos-inc/dbos-sdk';
import { cellRequest, oneRequirement, runtimeUnderTest, type RuntimeUnderTest } from '@vendor-review/conformance';
import { newRunId, type ReviewState, type Variant } from '@vendor-review/pipeline';
import { WorkerProcess } from '@vendor-review/testbed';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { enqueueReview, sendApproval } from '../src/client.ts';
import { APP_NAME } from '../src/identity.ts';
import { runtime } from '../harness/module.ts';

let rs: RuntimeUnderTest;
let worker: WorkerProcess;
let client: DBOSClient;

beforeAll(async () => {
  rs = await runtimeUnderTest(runtime, { name: 'worker' });
  worker = new WorkerProcess('W', {
    entry: fileURLToPath(new URL('../src/worker.ts', import.meta.url)),
    env: { DATABASE_URL: rs.databaseUrl, WORLD_URL: rs.world.url, DBOS_EXECUTOR_ID: 'deployed-worker' },
  });
  await worker.waitForLine(/READY executor=deployed-worker/);
  client = await DBOSClient.create({ systemDatabaseUrl: rs.databaseUrl, applicationName: APP_NAME });
});

afterAll(async () => {
  await worker?.kill();
  await client?.destroy();
  await rs?.stop();
});

it('runs every review a client enqueues: two runs, both variants, each mailed once; SIGTERM ends it', async () => {
  const request = oneRequirement(cellRequest(rs.world.url));
  const run = async (variant: Variant) => {
    const runId = newRunId(`dbos-worker-${variant}`);
    const handle = await enqueueReview(client, { runId, variant, request });
    await sendApproval(client, runId, { approved: true, by: 'test' });
    return { runId, state: (await handle.getResult()) as ReviewState };
  };
  for (const { runId, state } of await Promise.all([run('naive'), run('hardened')])) {
    expect([state.runId, state.delivery?.messageId]).toEqual([runId, rs.world.outbox(runId)[0]?.id]);
    expect(rs.world.outbox(runId)).toHaveLength(1);
  }
  worker.signal('SIGTERM');
  expect((await worker.exited).exitCode).toBe(0);
});
