import { newRunId, type RunIdentity } from '../identity.ts';
import type { Ports } from '../ports.ts';
import type { Decision } from '../run.ts';
import type { ReviewRequestInput } from '../request.ts';
import { applyUpdate, hasMoreRequirements, initialState, type ReviewState, type StateUpdate } from '../state.ts';
import { applyApproval, askApprover } from '../steps/approval.ts';
import { deriveIdempotencyKey, type StepContext } from '../steps/context.ts';
import { deadLetter } from '../steps/dead-letter.ts';
import { deliver } from '../steps/deliver.ts';
import { discover } from '../steps/discover.ts';
import { draft } from '../steps/draft.ts';
import { extract } from '../steps/extract.ts';
import { fetchPage } from '../steps/fetch-page.ts';
import type { StepName } from '../steps/names.ts';
import { saveProgress } from '../steps/save-progress.ts';
import { selectPage } from '../steps/select-page.ts';
import { selectRequirement } from '../steps/select-requirement.ts';
import { validate } from '../steps/validate.ts';
import { verify } from '../steps/verify.ts';

export interface PlainRunOptions {
  runId?: string;
  worker?: string;
  /** Send idempotency keys derived from run + step (+ requirement), as the hardened variants do. Default: none, like the naive ones. */
  keys?: boolean;
  /** Awaited as every step begins, before it runs (a tracer, an instrument). */
  beforeStep?: (step: StepName) => Promise<void>;
  /** Called after every step with the state it produced (for progress output). */
  onStep?: (step: StepName, state: ReviewState) => void;
  /** Asks for the human decision once the draft exists. Default: approve at once. */
  approve?: (state: ReviewState) => Promise<Decision>;
}

export interface PlainRunResult {
  state: ReviewState;
  /** True when a step failed and the run ended in the dead letter. */
  failed: boolean;
}

/**
 * The steps in graph order, in one process, with nothing persisted: the baseline every crashed run
 * is compared against, and the zero-durability floor for benchmarks. No retries either: a failure
 * goes straight to the dead letter. Approval is automatic unless `approve` asks someone.
 */
export async function runPlain(
  requestInput: ReviewRequestInput,
  ports: Ports,
  opts: PlainRunOptions = {},
): Promise<PlainRunResult> {
  const runId = opts.runId ?? newRunId(slugOf(requestInput));
  const run: RunIdentity = { runId, runtime: 'plain', runtimeId: runId };
  // VALIDATE reads state.request as untrusted input; until it has run, the request is only what we were handed.
  let state = initialState(runId, requestInput as ReviewState['request']);
  const ctx = (step: StepName, ...keyParts: string[]): StepContext => ({
    run,
    step,
    attempt: 1,
    worker: opts.worker ?? 'plain',
    ...(opts.keys ? { idempotencyKey: deriveIdempotencyKey(runId, step, ...keyParts) } : {}),
  });
  let stepName: StepName = 'VALIDATE';
  const apply = (step: StepName, update: StateUpdate) => {
    state = applyUpdate(state, update);
    opts.onStep?.(step, state);
  };
  const step = async (
    name: StepName,
    fn: (s: ReviewState, p: Ports, c: StepContext) => Promise<StateUpdate>,
    ...keyParts: string[]
  ) => {
    stepName = name;
    await opts.beforeStep?.(name);
    apply(name, await fn(state, ports, ctx(name, ...keyParts)));
  };

  try {
    await step('VALIDATE', validate);
    await step('DISCOVER', discover);
    while (hasMoreRequirements(state)) {
      await step('SELECT_REQUIREMENT', selectRequirement);
      const requirementId = state.current!.requirementId;
      await step('SELECT_PAGE', selectPage, requirementId);
      stepName = 'FETCH';
      const candidates = state.current!.candidates;
      const updates = await Promise.all(
        candidates.map(async (url, index) => {
          await opts.beforeStep?.('FETCH');
          return fetchPage(state, ports, ctx('FETCH', requirementId, url), { url, index, of: candidates.length });
        }),
      );
      for (const u of updates) apply('FETCH', u);
      await step('EXTRACT', extract, requirementId);
      await step('VERIFY', verify, requirementId);
      await step('SAVE_PROGRESS', saveProgress, requirementId);
    }
    await step('DRAFT', draft);
    stepName = 'AWAIT_APPROVAL';
    await askApprover(state, ports, ctx('AWAIT_APPROVAL'));
    const decision = opts.approve ? await opts.approve(state) : { approved: true, by: 'plain-runner (auto-approve)' };
    apply('AWAIT_APPROVAL', applyApproval(state, decision));
    if (decision.approved) await step('DELIVER', deliver);
    return { state, failed: false };
  } catch (error) {
    apply('DEAD_LETTER', deadLetter({ step: stepName, error, attempts: 1, input: { current: state.current } }));
    return { state, failed: true };
  }
}

function slugOf(request: ReviewRequestInput): string {
  const name = (request as { vendor?: { name?: unknown } })?.vendor?.name;
  const slug =
    typeof name === 'string'
      ? name
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-')
          .replace(/^-|-$/g, '')
          .slice(0, 24)
      : '';
  return slug || 'vendor';
}
