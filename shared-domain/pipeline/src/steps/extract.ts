import { PermanentError } from '../errors.ts';
import type { Ports } from '../ports.ts';
import { extractPrompt } from '../prompts.ts';
import { keywordsFor } from '../requirements.ts';
import type { Finding, ReviewState, StateUpdate } from '../state.ts';
import { callMeta, type StepContext } from './context.ts';
import { parseFindings } from './model-json.ts';
import { currentRequirement } from './requirement-of.ts';

/** EXTRACT: one model call per requirement over the fetched candidate pages; findings[requirementId]. */
export async function extract(state: ReviewState, ports: Ports, ctx: StepContext): Promise<StateUpdate> {
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
  const reply = await ports.model.complete(prompt, callMeta(ctx));
  const byUrl = new Map(parseFindings(reply.text).map((f) => [f.url, f]));
  // One finding per candidate, in candidate order: a page the model skipped counts as "says nothing".
  const findings: Finding[] = candidates.map(
    (url) => byUrl.get(url) ?? { url, found: false, answer: 'unclear', quote: '' },
  );
  return { findings: { [requirement.id]: findings } };
}
