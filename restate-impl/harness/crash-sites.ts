/**
 * Where the instrument's non-call sites are on a Restate endpoint, from outside the application:
 * a step beginning is the SDK's `run` interceptor (a hook of the service's options, fired when a
 * `ctx.run` closure executes, not when a recorded one is replayed), and the wait for a person is
 * the workflow's phase in the server's own state, read through the admin API.
 */
import type * as restate from '@restatedev/restate-sdk';
import { stepBegins, watchForWait } from '@vendor-review/instrument';
import type { RestateUrls } from '../src/client.ts';
import type { Phase } from '../src/workflow.ts';
import { serviceNameFor } from './service-name.ts';
import { RestateJournal } from './journal.ts';

/** The domain's step of a `ctx.run` label: `EXTRACT:pricing` is EXTRACT, `REQUIREMENT#2` REQUIREMENT. */
export function stepOfRun(label: string): string {
  return label.split(/[:#]/)[0] ?? label;
}

/** Awaits the step's beginning before each `ctx.run` closure runs, so a kill lands before its first call. */
export const stepHooks: restate.HooksProvider = () => ({
  interceptor: {
    run: async (label, next) => {
      const step = stepOfRun(label);
      await stepBegins(step, `ctx.run ${label}`);
      await next();
    },
  },
});

/** Watches, while the plan arms it, for the run's workflow to be durably waiting for the approval. */
export function watchRunWait(urls: RestateUrls, runId: string, pollMs: number): () => void {
  const journal = new RestateJournal(urls.adminUrl);
  const service = serviceNameFor(runId);
  return watchForWait(async () => {
    const inv = await journal.invocation(service, runId);
    const waiting = inv && inv.status !== 'completed' && inv.phase && (JSON.parse(inv.phase) as Phase);
    return waiting === 'awaiting-approval' ? [runId] : [];
  }, pollMs);
}
