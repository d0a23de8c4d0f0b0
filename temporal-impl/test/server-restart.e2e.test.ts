/**
 * The Temporal server itself dies (SIGKILL) in the middle of a run. With --db-filename the dev
 * server's SQLite file holds the histories and a restart on the same file loses nothing; without
 * it everything lived in memory, and the product must say so in plain words.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { newRunId, reviewDigest, type ReviewRequestInput } from '@vendor-review/pipeline';
import { freshDatabase, type FreshDatabase, type WorkerProcess } from '@vendor-review/testbed';
import { readHistory, sdkDownloadedTemporal, startTemporal, type TemporalHandle } from '../harness/index.ts';
import { EXPECTED_VERDICTS, startWorld, vendorRequest, type World } from '@vendor-review/world';
import { approveRun, getRun, RunNotFoundError, setupDatabase, startRun, waitForRun } from '../src/index.ts';
import { POSTGRES_SERVER_URL, taskQueueFor } from './support/environment.ts';
import { ready, startWorkerProcess } from './support/worker-process.ts';

const bundlePath = inject('workflowBundle');
const { TEMPORAL_ADDRESS: _external, ...cliEnv } = process.env;
let world: World;
let db: FreshDatabase;
let request: ReviewRequestInput;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  [world, db] = await Promise.all([
    startWorld({ modelLatencyMs: 400 }),
    freshDatabase(POSTGRES_SERVER_URL, 'tp_restart'),
  ]);
  await setupDatabase(db.url);
  const full = vendorRequest('cobalt-mail', world.url);
  request = { ...full, requirements: full.requirements.filter((r) => r.id === 'soc2' || r.id === 'dpa') };
});

afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
  await world?.stop();
  await db?.drop().catch(() => {});
});

async function connect(temporal: TemporalHandle) {
  const connection = await Connection.connect({ address: temporal.address });
  cleanups.push(() => connection.close());
  return new Client({ connection, namespace: temporal.namespace });
}

function worker(temporal: TemporalHandle, taskQueue: string, name: string): WorkerProcess {
  const w = startWorkerProcess(name, {
    address: temporal.address,
    taskQueue,
    worldUrl: world.url,
    databaseUrl: db.url,
    bundlePath,
  });
  cleanups.push(() => w.kill());
  return w;
}

async function until(what: string, check: () => boolean, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const portOf = (address: string) => Number(address.split(':').pop());

describe.sequential('the dev server is killed mid-run', () => {
  it('restarted on the same --db-filename: the history is intact and the run completes', async () => {
    const dbFilename = join(mkdtempSync(join(tmpdir(), 'temporal-restart-')), 'temporal.db');
    let temporal = await startTemporal({ env: cliEnv, dbFilename, sdkFallback: sdkDownloadedTemporal });
    cleanups.push(() => temporal.stop());
    const client = await connect(temporal);
    const taskQueue = taskQueueFor('restart-file');
    let w = worker(temporal, taskQueue, 'A');
    await ready(w);
    const runId = newRunId('restart');
    const started = await startRun({ client, taskQueue, request, variant: 'hardened', runId });

    await until('the first requirement to be saved', () => world.notes(runId).length >= 1);
    const before = await readHistory({ client, runId });
    await temporal.kill();
    const killedAt = Date.now();
    temporal = await startTemporal({ env: cliEnv, dbFilename, port: portOf(temporal.address) });
    process.stdout.write(`dev server killed and restarted on ${dbFilename} in ${Date.now() - killedAt}ms\n`);

    // The worker normally rides out the outage (its pollers retry); if it gave up, a new one takes over.
    if (!w.alive) {
      process.stdout.write('worker A did not survive the outage; starting worker B\n');
      w = worker(temporal, taskQueue, 'B');
      await ready(w);
    } else {
      process.stdout.write('worker A rode out the outage (its pollers retried until the server was back)\n');
    }
    const waiting = await waitForRun({
      client,
      runId,
      until: ['awaiting-approval', 'completed', 'failed'],
      timeoutMs: 120_000,
      queryState: false,
    });
    expect(waiting.status).toBe('awaiting-approval');
    expect(waiting.runtimeRunId).toBe(started.runtimeRunId);
    await approveRun({ client, runId, approved: true, by: 'reviewer@example.com' });
    const done = await waitForRun({ client, runId, timeoutMs: 120_000 });
    expect(done.status).toBe('completed');

    const after = await readHistory({ client, runId });
    const shape = (es: typeof before) => es.map((e) => `${e.eventId} ${e.eventType} ${e.activityId ?? ''}`);
    expect(shape(after).slice(0, before.length)).toEqual(shape(before));
    expect(world.notes(runId)).toHaveLength(2);
    expect(world.outbox(runId)).toHaveLength(1);
    const verdicts = Object.fromEntries(Object.values(done.state!.verdicts).map((v) => [v.requirementId, v.status]));
    expect(verdicts).toEqual({
      soc2: EXPECTED_VERDICTS['cobalt-mail']!.soc2,
      dpa: EXPECTED_VERDICTS['cobalt-mail']!.dpa,
    });
    expect(reviewDigest(done.state!)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('restarted without a file: the run is gone, and the error says so in plain words', async () => {
    let temporal = await startTemporal({ env: cliEnv, sdkFallback: sdkDownloadedTemporal });
    cleanups.push(() => temporal.stop());
    const client = await connect(temporal);
    const taskQueue = taskQueueFor('restart-memory');
    const w = worker(temporal, taskQueue, 'A');
    await ready(w);
    const runId = newRunId('lost');
    await startRun({ client, taskQueue, request, variant: 'hardened', runId });
    await until('the first requirement to be saved', () => world.notes(runId).length >= 1);

    await temporal.kill();
    temporal = await startTemporal({ env: cliEnv, port: portOf(temporal.address) });

    const view = await getRun({ client, runId });
    expect(view.status).toBe('not-found');
    expect(view.state).toBeNull();
    expect(view.reason).toMatch(/run rev-lost-\w+ is gone/);
    expect(view.reason).toMatch(/--db-filename/);
    const approving = approveRun({ client, runId, approved: true, by: 'reviewer@example.com' });
    await expect(approving).rejects.toBeInstanceOf(RunNotFoundError);
    await expect(approving).rejects.toThrow(/kept workflows only in memory|keeps workflows only in memory/);
    await w.kill();
  });
});
