/**
 * The endpoint a team deploys (src/worker.ts) serves every run of the `review` service, as a
 * deployed one does: one process, registered once under the service's own name, two runs of
 * different variants submitted by the client, each approved and mailed once. Then SIGTERM ends it.
 */
import { fileURLToPath } from 'node:url';
import {
  cellRequest,
  connectionTo,
  oneRequirement,
  runtimeUnderTest,
  type RuntimeUnderTest,
} from '@vendor-review/conformance';
import { newRunId, type ReviewState, type Variant } from '@vendor-review/pipeline';
import { WorkerProcess } from '@vendor-review/testbed';
import { freePort } from '@vendor-review/worker-io';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { attachReview, registerDeployment, sendApproval, submitReview } from '../src/client.ts';
import { REVIEW_SERVICE } from '../src/workflow.ts';
import { runtime } from '../harness/module.ts';
import { RESTATE_SERVER } from '../harness/server/spec.ts';

let rs: RuntimeUnderTest;
let endpoint: WorkerProcess;

beforeAll(async () => {
  rs = await runtimeUnderTest(runtime, { name: 'endpoint' });
  const port = await freePort();
  endpoint = new WorkerProcess('E', {
    entry: fileURLToPath(new URL('../src/worker.ts', import.meta.url)),
    env: { DATABASE_URL: rs.databaseUrl, WORLD_URL: rs.world.url, PORT: String(port), RESTATE_LOGGING: 'ERROR' },
  });
  await endpoint.waitForLine(new RegExp(`READY service=${REVIEW_SERVICE} port=${port}`));
  const server = connectionTo(rs.connections, RESTATE_SERVER);
  await registerDeployment(server, `http://${server.endpointHost}:${port}`);
});

afterAll(async () => {
  await endpoint?.kill();
  await rs?.stop();
});

it('serves every run of the review service: two runs, both variants, each mailed once; SIGTERM ends it', async () => {
  const server = connectionTo(rs.connections, RESTATE_SERVER);
  const request = oneRequirement(cellRequest(rs.world.url));
  const run = async (variant: Variant) => {
    const runId = newRunId(`rs-endpoint-${variant}`);
    await submitReview(server, REVIEW_SERVICE, { runId, variant, request });
    await sendApproval(server, REVIEW_SERVICE, runId, { approved: true, by: 'test' });
    return { runId, state: (await attachReview(server, REVIEW_SERVICE, runId)) as ReviewState };
  };
  for (const { runId, state } of await Promise.all([run('naive'), run('hardened')])) {
    expect([state.runId, state.delivery?.messageId]).toEqual([runId, rs.world.outbox(runId)[0]?.id]);
    expect(rs.world.outbox(runId)).toHaveLength(1);
  }
  endpoint.signal('SIGTERM');
  expect((await endpoint.exited).exitCode).toBe(0);
});
