import {
  parseReviewRequest,
  applyUpdate,
  initialState,
  type ReviewState,
  type StepContext,
  discover,
  extract,
  fetchPage,
  type StepName,
  selectPage,
  selectRequirement,
  validate,
  verify,
} from '@vendor-review/pipeline';
import { vendorRequest } from './requests.ts';
import { FAKE_ORIGIN, fakePorts } from './fake-ports.ts';

/** States at known points of a run over the fake ports, for unit tests of one step. */
export function testCtx(step: StepName, extra: Partial<StepContext> = {}): StepContext {
  return {
    run: { runId: 'rev-test-1', runtime: 'plain', runtimeId: 'rev-test-1' },
    step,
    attempt: 1,
    worker: 'T',
    ...extra,
  };
}

export function freshState(slug: string): ReviewState {
  return initialState('rev-test-1', parseReviewRequest(vendorRequest(slug, FAKE_ORIGIN)));
}

/** Runs VALIDATE … up to and including `until`, for `requirementId` first (default: the first pending one). */
export async function stateThrough(
  slug: string,
  until: 'DISCOVER' | 'SELECT_PAGE' | 'FETCH' | 'EXTRACT' | 'VERIFY',
  requirementId?: string,
): Promise<ReviewState> {
  const ports = fakePorts();
  let s = freshState(slug);
  s = applyUpdate(s, await validate(s, ports, testCtx('VALIDATE')));
  s = applyUpdate(s, await discover(s, ports, testCtx('DISCOVER')));
  if (until === 'DISCOVER') return s;
  if (requirementId) s = { ...s, pending: [requirementId, ...s.pending.filter((id) => id !== requirementId)] };
  s = applyUpdate(s, await selectRequirement(s, ports, testCtx('SELECT_REQUIREMENT')));
  s = applyUpdate(s, await selectPage(s, ports, testCtx('SELECT_PAGE')));
  if (until === 'SELECT_PAGE') return s;
  const candidates = s.current!.candidates;
  for (const [index, url] of candidates.entries())
    s = applyUpdate(s, await fetchPage(s, ports, testCtx('FETCH'), { url, index, of: candidates.length }));
  if (until === 'FETCH') return s;
  s = applyUpdate(s, await extract(s, ports, testCtx('EXTRACT')));
  if (until === 'EXTRACT') return s;
  return applyUpdate(s, await verify(s, ports, testCtx('VERIFY')));
}
