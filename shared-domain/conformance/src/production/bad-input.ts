import { newRunId, InvalidRequestError, type ReviewRequestInput } from '@vendor-review/pipeline';
import { worldClient } from '@vendor-review/world';
import type { HazardRunner } from './types.ts';

/** Requests no review can come from, each wrong in its own way. */
function malformed(good: ReviewRequestInput): { what: string; request: ReviewRequestInput }[] {
  return [
    { what: 'no requirements', request: { ...good, requirements: [] } },
    {
      what: 'a requester email that is not one',
      request: { ...good, requester: { name: 'Pat', email: 'not-an-email' } },
    },
    {
      what: 'a vendor URL that is not http(s)',
      request: { ...good, vendor: { ...good.vendor, baseUrl: 'ftp://vendor' } },
    },
  ];
}

/**
 * Each malformed request is started through the runtime's own front door. It must be refused
 * there, and nothing may exist afterwards: the runtime knows no such run, and the world saw no call.
 */
export const badInputHazard: HazardRunner = async (env, scenario) => {
  const { adapter } = env;
  const world = worldClient(env.worldUrl);
  let refused = 0;
  let runsCreated = 0;
  let worldCalls = 0;
  let firstError: string | null = null;
  const cases = malformed(env.request);
  for (const c of cases) {
    const runId = newRunId('bad-input');
    const config = { variant: scenario.variant, durability: null };
    try {
      await adapter.startRun(c.request, config, { runId });
    } catch (err) {
      if (err instanceof InvalidRequestError) {
        refused++;
        firstError ??= (err as Error).message;
      } else throw err;
    }
    const view = await adapter.status({ runId, config, durability: null, runtimeIds: {}, link: null });
    if (view.status !== 'not-found') runsCreated++;
    worldCalls += (await world.ledger({ runId })).length;
  }
  return {
    verdict: refused === cases.length && runsCreated === 0 && worldCalls === 0 ? 'refused' : 'accepted',
    runId: null,
    figures: {
      'malformed requests': cases.length,
      refused,
      'runs created': runsCreated,
      'calls to the world': worldCalls,
      'first error': firstError,
    },
  };
};
