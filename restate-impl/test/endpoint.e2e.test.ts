/**
 * The endpoint a team deploys (src/worker.ts) serves every run of the `review` service, as a
 * deployed one does: one process, registered once under the service's own name, two runs of
 * different variants submitted by the client, each approved and mailed once. Then SIGTERM ends it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import {
  cellRequest,
  connectionTo,
  oneRequirement,
  runtimeUnderTest,
  type RuntimeUnderTest,
} from '@vendor-review/conformance';
import { newRunId, type ReviewState, type Variant } from '@vendor-review/pipeline';
import { freePort } from '@vendor-review/worker-io';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachReview, registerDeployment, sendApproval, submitReview } from '../src/client.ts';
import { REVIEW_SERVICE } from '../src/workflow.ts';
import { runtime } from '../harness/module.ts';
import { RESTATE_SERVER } from '../harness/server/spec.ts';

const WORKER = fileURLToPath(new URL('../src/worker.ts', import.meta.url));

let rs: RuntimeUnderTest;
let endpoint: ChildProcess;
let output = '';

beforeAll(async () => {
  rs = await runtimeUnderTest(runtime, { name: 'endpoint' });
  const port = await freePort();
  endpoint = spawn(process.execPath, ['--import', 'tsx', WORKER], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: rs.databaseUrl,
      WORLD_URL: rs.world.url,
      PORT: String(port),
      WORKER_NAME: 'E',
      RESTATE_LOGGING: 'ERROR',
    },
  });
  endpoint.stdout!.on('data', (b: Buffer) => (output += b.toString()));
  endpoint.stderr!.on('data', (b: Buffer) => (output += b.toString()));
  await new Promise<void>((resolve, reject) => {
    const ready = () => output.includes('READY') && resolve();
    endpoint.stdout!.on('data', ready);
    endpoint.once('exit', (code) => reject(new Error(`the endpoint left (exit ${code}): ${output}`)));
  });
  const server = connectionTo(rs.connections, RESTATE_SERVER);
  await registerDeployment(server, `http://${server.endpointHost}:${port}`);
});

afterAll(async () => {
  if (endpoint && endpoint.exitCode === null && endpoint.signalCode === null) endpoint.kill('SIGKILL');
  await rs?.stop();
});

describe('the endpoint a team deploys', () => {
  it('serves every run of the review service: two runs, both variants, each mailed once', async () => {
    expect(output).toContain(`READY service=${REVIEW_SERVICE} `);
    const server = connectionTo(rs.connections, RESTATE_SERVER);
    const request = oneRequirement(cellRequest(rs.world.url));
    const run = async (variant: Variant) => {
      const runId = newRunId(`rs-endpoint-${variant}`);
      await submitReview(server, REVIEW_SERVICE, { runId, variant, request });
      await sendApproval(server, REVIEW_SERVICE, runId, { approved: true, by: 'test' });
      return { runId, state: (await attachReview(server, REVIEW_SERVICE, runId)) as ReviewState };
    };
    const runs = await Promise.all([run('naive'), run('hardened')]);
    for (const { runId, state } of runs) {
      expect(state.runId).toBe(runId);
      expect(state.delivery).not.toBeNull();
      expect(rs.world.outbox(runId)).toHaveLength(1);
    }
  });

  it('leaves on SIGTERM', async () => {
    const exited = once(endpoint, 'exit');
    endpoint.kill('SIGTERM');
    const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
    expect(code === 0 || signal === 'SIGTERM').toBe(true);
  });
});
