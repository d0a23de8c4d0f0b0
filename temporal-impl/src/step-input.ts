/**
 * What an activity is handed: the whole ReviewState (naive, the way a tutorial passes it) or only
 * the part of it the step reads (hardened). Every argument of every scheduled activity is stored in
 * the history, so handing each step the whole state stores every fetched page once per later
 * activity: a history that grows with the square of the requirements. The slice keeps the state's
 * shape (each step still receives a ReviewState) and empties what the step never looks at.
 *
 * Runs in the workflow sandbox: pure, deterministic, domain/pure only.
 */
import type { ReviewState } from '@vendor-review/pipeline/pure';

/** The activities that take the review state, by what they read. */
export type StateStep =
  | 'validate'
  | 'discover'
  | 'selectRequirement'
  | 'selectPage'
  | 'fetchPage'
  | 'extract'
  | 'verify'
  | 'saveProgress'
  | 'draft'
  | 'requestApproval'
  | 'applyApproval'
  | 'deliver'
  | 'enqueueDelivery'
  // The stages of the coarser granularities (workflows.ts): several steps in one activity.
  | 'review'
  | 'researchRequirement'
  | 'send';

export type ArgPassing = 'whole' | 'slice';

function pick<T>(map: Record<string, T>, keys: readonly string[]): Record<string, T> {
  const out: Record<string, T> = {};
  for (const k of keys) if (Object.hasOwn(map, k)) out[k] = map[k]!;
  return out;
}

/**
 * The state `step` needs. `url` is the page a FETCH sibling reads (it skips pages the run already
 * has). What stays whole everywhere is small and bounded: ids, the pending list, the approval.
 */
export function stepInput(step: StateStep, state: ReviewState, passing: ArgPassing, url?: string): ReviewState {
  if (passing === 'whole') return state;
  const current = state.current?.requirementId;
  const candidates = state.current?.candidates ?? [];
  // The current requirement's steps look up only their own requirement in the request.
  const oneRequirement = {
    ...state.request,
    requirements: state.request.requirements.filter((r) => r.id === current),
  };
  const empty: ReviewState = {
    ...state,
    pages: [],
    fetched: {},
    findings: {},
    verdicts: {},
    progressNotes: {},
    draft: null,
  };
  switch (step) {
    case 'validate':
    case 'discover':
    case 'applyApproval':
      // VALIDATE parses the whole request; DISCOVER reads the vendor's address from it.
      return empty;
    case 'selectRequirement':
      return { ...empty, request: { ...state.request, requirements: [] } };
    case 'selectPage':
      return { ...empty, request: oneRequirement, pages: state.pages };
    case 'fetchPage':
      return { ...empty, request: oneRequirement, fetched: pick(state.fetched, url === undefined ? [] : [url]) };
    case 'extract':
      return { ...empty, request: oneRequirement, fetched: pick(state.fetched, candidates) };
    case 'verify':
      return {
        ...empty,
        request: oneRequirement,
        fetched: pick(state.fetched, candidates),
        findings: pick(state.findings, current === undefined ? [] : [current]),
      };
    case 'saveProgress':
      return {
        ...empty,
        request: oneRequirement,
        verdicts: pick(state.verdicts, current === undefined ? [] : [current]),
      };
    case 'draft':
      return { ...empty, verdicts: state.verdicts };
    case 'requestApproval':
      return { ...empty, verdicts: state.verdicts, draft: state.draft };
    case 'deliver':
    case 'enqueueDelivery':
      return { ...empty, draft: state.draft };
    case 'review':
      // Everything before the approval, from the request alone: the state is the request still.
      return state;
    case 'researchRequirement':
      // It chooses its requirement and pages itself, and skips pages the run already has: all of them go.
      return { ...empty, pages: state.pages, fetched: state.fetched };
    case 'send':
      // DRAFT reads the verdicts, DELIVER the draft it has just written.
      return { ...empty, verdicts: state.verdicts };
  }
}
