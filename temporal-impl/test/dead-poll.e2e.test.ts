/**
 * The deploy drill's foreign payload landing on a workflow task that a killed worker's poll is
 * still open for: the server hands the task to that poll, nobody answers it, it times out, and its
 * retries are transient attempts whose failures the history does not record. The drill must still
 * leave the next worker a recorded attempt to refuse (a CI run once judged this row `broke`: the
 * run waited and its history named no reason).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import {
  connectionTo,
  productionCatalogue,
  runHazard,
  runtimeUnderTest,
  type RuntimeUnderTest,
} from '@vendor-review/conformance';
import type { DeployDrill, RunHandle } from '@vendor-review/conformance';
import { workflowIdFor } from '../src/identity.ts';
import { fetchHistoryJson, runtime, TEMPORAL, TEMPORAL_SERVER } from '../harness/index.ts';

let tm: RuntimeUnderTest;
let client: Client;
const polls: AbortController[] = [];

beforeAll(async () => {
  tm = await runtimeUnderTest(runtime, { name: 'dead_poll' });
  const temporal = connectionTo(tm.connections, TEMPORAL_SERVER);
  const connection = await Connection.connect(temporal.connection);
  client = new Client({ connection, namespace: temporal.namespace });
});

afterAll(async () => {
  for (const p of polls) p.abort();
  await client?.connection.close();
  await tm?.stop();
});

/** The run's normal task queue, from the history (the killed worker's last sticky workflow task names it). */
async function normalQueueOf(h: RunHandle): Promise<string> {
  const events = (await fetchHistoryJson(client, workflowIdFor(h.runId))).events;
  const queue = events
    .map(
      (e) => (e.workflowTaskScheduledEventAttributes as { taskQueue?: Record<string, string> } | undefined)?.taskQueue,
    )
    .filter((q) => q?.kind === 'TASK_QUEUE_KIND_STICKY')
    .at(-1);
  if (!queue?.normalName) throw new Error('the killed worker left no sticky queue in the history');
  return queue.normalName;
}

/**
 * A poll on the run's normal queue that nobody will ever answer for, open at the server before this
 * returns: what a worker killed a moment ago leaves until the server notices.
 */
async function openDeadPoll(queue: string): Promise<void> {
  const abort = new AbortController();
  polls.push(abort);
  const identity = 'A/dead-poll';
  const { connection } = client;
  // The server refuses a poll without a deadline; a long poll's own ends after a minute.
  void connection
    .withAbortSignal(abort.signal, () =>
      connection.withDeadline(Date.now() + 70_000, () =>
        client.workflowService.pollWorkflowTaskQueue({
          namespace: client.options.namespace,
          taskQueue: { name: queue, kind: 1 /* NORMAL */ },
          identity,
        }),
      ),
    )
    .catch(() => undefined);
  for (const until = Date.now() + 30_000; Date.now() < until;) {
    const described = await client.workflowService.describeTaskQueue({
      namespace: client.options.namespace,
      taskQueue: { name: queue, kind: 1 },
      taskQueueType: 1 /* WORKFLOW */,
    });
    if (described.pollers?.some((p) => p.identity === identity)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the server never listed the poll on ${queue}`);
}

it('a foreign payload handed to a killed worker’s open poll is still refused clearly, and the row says what happened', async () => {
  const env = tm.env();
  const deploy = env.adapter.drills!.deploy!;
  const withDeadPoll: DeployDrill = {
    ...deploy,
    async foreignFormat(h) {
      await openDeadPoll(await normalQueueOf(h));
      return deploy.foreignFormat(h);
    },
  };
  const adapter = { ...env.adapter, drills: { ...env.adapter.drills!, deploy: withDeadPoll } };
  const [scenario] = productionCatalogue([TEMPORAL], ['deploy-unknown-format']).filter((s) => s.variant === 'naive');
  const observed = await runHazard(scenario!, { ...env, adapter });
  expect(String(observed.figures['the record'])).toMatch(/handed to the killed worker's open poll \(A\/dead-poll\)/);
  expect(observed.verdict).toBe('refused-clearly');
  expect(String(observed.figures.error)).toMatch(/encoding/i);
});
