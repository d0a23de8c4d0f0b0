/**
 * The worker a team deploys (src/worker.ts) runs every review a client enqueues, as a deployed one
 * does: one process, two runs of different variants enqueued and approved through DBOS's own
 * client (src/client.ts), each mailed once. Then SIGTERM ends it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { DBOSClient } from '@dbos-inc/dbos-sdk';
import { cellRequest, oneRequirement, runtimeUnderTest, type RuntimeUnderTest } from '@vendor-review/conformance';
import { newRunId, type ReviewState, type Variant } from '@vendor-review/pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueReview, sendApproval } from '../src/client.ts';
import { APP_NAME } from '../src/identity.ts';
import { runtime } from '../harness/module.ts';

const WORKER = fileURLToPath(new URL('../src/worker.ts', import.meta.url));

let rs: RuntimeUnderTest;
let worker: ChildProcess;
let client: DBOSClient;
let output = '';

beforeAll(async () => {
  rs = await runtimeUnderTest(runtime, { name: 'worker' });
  worker = spawn(process.execPath, ['--import', 'tsx', WORKER], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: rs.databaseUrl,
      WORLD_URL: rs.world.url,
      WORKER_NAME: 'W',
      DBOS_EXECUTOR_ID: 'deployed-worker',
    },
  });
  worker.stdout!.on('data', (b: Buffer) => (output += b.toString()));
  worker.stderr!.on('data', (b: Buffer) => (output += b.toString()));
  await new Promise<void>((resolve, reject) => {
    worker.stdout!.on('data', () => output.includes('READY') && resolve());
    worker.once('exit', (code) => reject(new Error(`the worker left (exit ${code}): ${output}`)));
  });
  client = await DBOSClient.create({ systemDatabaseUrl: rs.databaseUrl, applicationName: APP_NAME });
});

afterAll(async () => {
  if (worker && worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
  await client?.destroy();
  await rs?.stop();
});

describe('the worker a team deploys', () => {
  it('runs every review a client enqueues: two runs, both variants, each mailed once', async () => {
    const request = oneRequirement(cellRequest(rs.world.url));
    const run = async (variant: Variant) => {
      const runId = newRunId(`dbos-worker-${variant}`);
      const handle = await enqueueReview(client, { runId, variant, request });
      await sendApproval(client, runId, { approved: true, by: 'test' });
      return { runId, state: (await handle.getResult()) as ReviewState };
    };
    const runs = await Promise.all([run('naive'), run('hardened')]);
    for (const { runId, state } of runs) {
      expect(state.runId).toBe(runId);
      expect(state.delivery).not.toBeNull();
      expect(rs.world.outbox(runId)).toHaveLength(1);
    }
  });

  it('leaves on SIGTERM', async () => {
    const exited = once(worker, 'exit');
    worker.kill('SIGTERM');
    const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
    expect(code === 0 || signal === 'SIGTERM').toBe(true);
  });
});
