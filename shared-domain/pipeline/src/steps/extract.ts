import { crashpoint, isArmed } from '../crash-hook.ts';
import { PermanentError } from '../errors.ts';
import type { Ports } from '../ports.ts';
import { extractPrompt } from '../prompts.ts';
import { keywordsFor } from '../requirements.ts';
import type { Finding, ReviewState, StateUpdate } from '../state.ts';
import { callMeta, type StepContext } from './context.ts';
import { parseFindings } from './model-json.ts';
import { currentRequirement } from './requirement-of.ts';

/** Counted from the moment the request leaves the process: long enough for it to reach the model, well short of the world's model latency, so the kill lands mid-flight. */
export const MID_MODEL_SETTLE_MS = 100;

/** EXTRACT: one model call per requirement over the fetched candidate pages; findings[requirementId]. Crash points: boundary (at start), mid-model, after-model. */
export async function extract(state: ReviewState, ports: Ports, ctx: StepContext): Promise<StateUpdate> {
  await crashpoint('boundary');
  const { requirement, candidates } = currentRequirement(state, 'EXTRACT');
  const pages = candidates.map((url) => {
    const page = state.fetched[url];
    if (!page) throw new PermanentError(`EXTRACT: candidate ${url} was never fetched`, 'page-not-fetched');
    return page;
  });
  const prompt = extractPrompt({
    requirementId: requirement.id,
    question: requirement.question,
    keywords: keywordsFor(requirement),
    pages,
  });
  // mid-model must kill after the request left the process, not while the client is still loading.
  let onDispatch: (() => void) | undefined;
  const dispatched = isArmed('mid-model') ? new Promise<void>((resolve) => (onDispatch = resolve)) : Promise.resolve();
  const inFlight = ports.model.complete(prompt, callMeta(ctx), onDispatch ? { onDispatch } : undefined);
  // If the crash fires, nobody awaits this promise; keep a rejection from surfacing as unhandled first.
  const settled = inFlight.then(
    () => {},
    () => {},
  );
  await Promise.race([dispatched, settled]);
  await crashpoint('mid-model', { settleMs: MID_MODEL_SETTLE_MS });
  const reply = await inFlight;
  await crashpoint('after-model');
  const byUrl = new Map(parseFindings(reply.text).map((f) => [f.url, f]));
  // One finding per candidate, in candidate order: a page the model skipped counts as "says nothing".
  const findings: Finding[] = candidates.map(
    (url) => byUrl.get(url) ?? { url, found: false, answer: 'unclear', quote: '' },
  );
  return { findings: { [requirement.id]: findings } };
}
