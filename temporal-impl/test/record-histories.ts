/**
 * Records the replay fixtures for real: a dev server, the world, PostgreSQL, and a worker running
 * the v1 workflow code (harness/versions/v1.ts). Each run's history is written as proto JSON to
 * test/histories/. Run again only when the fixtures must change:
 *
 *   TEMPORAL_CLI_PATH=… pnpm --filter @vendor-review/temporal record-histories
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createHttpPorts } from '@vendor-review/worker-io';
import { newRunId, type Variant } from '@vendor-review/pipeline';
import { freshDatabase } from '@vendor-review/testbed';
import { startWorld, vendorRequest } from '@vendor-review/world';
import { createActivities } from '../src/activities.ts';
import { buildWorkflowBundle } from '../src/bundle.ts';
import { fetchHistoryJson, sdkDownloadedTemporal, startTemporal } from '../harness/index.ts';
import { approveRun, openStore, setupDatabase, startRun, waitForRun, workflowIdFor } from '../src/index.ts';
import { startOutboxDrainer } from '../src/outbox-drainer.ts';
import { installRuntime } from '../src/runtime.ts';

const OUT_DIR = fileURLToPath(new URL('./histories/', import.meta.url));
const V1 = fileURLToPath(new URL('../harness/versions/v1.ts', import.meta.url));

installRuntime();
const { TEMPORAL_ADDRESS: _ignored, ...env } = process.env;
const temporal = await startTemporal({ env, sdkFallback: sdkDownloadedTemporal });
const world = await startWorld({ modelLatencyMs: 50 });
const db = await freshDatabase(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', 'tp_record');
try {
  await setupDatabase(db.url);
  const bundle = await buildWorkflowBundle(join(mkdtempSync(join(tmpdir(), 'v1-bundle-')), 'v1.js'), V1);
  const ports = createHttpPorts({ worldUrl: world.url });
  const store = openStore(db.url);
  const taskQueue = 'record-v1';
  const worker = await Worker.create({
    connection: await NativeConnection.connect({ address: temporal.address }),
    taskQueue,
    workflowBundle: { codePath: bundle.path },
    activities: createActivities({ ports, worker: 'recorder', store }),
  });
  const drainer = startOutboxDrainer({ store, ports, worker: 'recorder', taskQueue });
  const client = new Client({ connection: await Connection.connect({ address: temporal.address }) });
  const full = vendorRequest('acme-analytics', world.url);
  const request = { ...full, requirements: full.requirements.filter((r) => r.id === 'soc2' || r.id === 'sso') };

  const record = async (
    name: string,
    variant: Variant,
    o: { approve?: boolean; setup?: (runId: string) => void } = {},
  ) => {
    const runId = newRunId(`v1-${name}`);
    o.setup?.(runId);
    await startRun({ client, taskQueue, request, variant, runId });
    const waiting = await waitForRun({ client, runId, until: ['awaiting-approval', 'completed', 'failed'] });
    if (waiting.status === 'awaiting-approval')
      await approveRun({ client, runId, approved: o.approve ?? true, by: 'reviewer@example.com' });
    const done = await waitForRun({ client, runId });
    const history = await fetchHistoryJson(client, workflowIdFor(runId));
    writeFileSync(join(OUT_DIR, `v1-${name}.json`), `${JSON.stringify(history, null, 2)}\n`);
    console.log(`recorded v1-${name}.json: ${done.status}, ${history.events.length} events`);
  };

  await worker.runUntil(async () => {
    await record('naive-approved', 'naive');
    await record('hardened-approved', 'hardened');
    await record('hardened-rejected', 'hardened', { approve: false });
    await record('hardened-dead-letter', 'hardened', {
      setup: (runId) => world.addFault({ route: 'tracker', kind: '422', times: 'forever', runId }),
    });
  });
  await drainer.stop();
  await store.close();
} finally {
  await world.stop();
  await temporal.stop();
  await db.drop().catch(() => {});
}
