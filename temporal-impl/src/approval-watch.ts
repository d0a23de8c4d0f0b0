import type { Client, ConnectionOptions } from '@temporalio/client';
import { crashpoint, isArmed } from '@vendor-review/pipeline';
import { reviewQuery } from './workflows/definitions.ts';

/**
 * The `awaiting-approval` crash point belongs to the worker process, not to a step: the moment to
 * die is when the run is durably waiting, i.e. when a query (answered from completed workflow
 * tasks only) reports the wait. The requestApproval activity tells us a run is about to wait.
 */
export function approvalCrashWatcher(o: {
  /** The worker's own connection settings (envconfig), so TLS and API keys apply here too. */
  connection: ConnectionOptions;
  namespace: string;
  pollMs?: number;
}): ((workflowId: string) => void) | undefined {
  if (!isArmed('awaiting-approval')) return undefined;
  let client: Promise<Client> | undefined;
  // Loaded only when this crash point is armed: the client library costs a worker ~1s of start time.
  const getClient = () =>
    (client ??= import('@temporalio/client').then(
      async ({ Client, Connection }) =>
        new Client({ connection: await Connection.connect(o.connection), namespace: o.namespace }),
    ));

  return (workflowId) => {
    void (async () => {
      const handle = (await getClient()).workflow.getHandle(workflowId);
      for (;;) {
        const view = await handle.query(reviewQuery).catch(() => null);
        if (view?.status === 'awaiting-approval') {
          await crashpoint('awaiting-approval', { detail: `workflowId=${workflowId}` });
          return;
        }
        await new Promise((r) => setTimeout(r, o.pollMs ?? 100));
      }
    })().catch((err) =>
      process.stderr.write(`approval watcher: ${err instanceof Error ? err.message : String(err)}\n`),
    );
  };
}
