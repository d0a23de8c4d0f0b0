import type { Ports } from '../ports.ts';
import type { Finding, ReviewState, StateUpdate, Verdict, VerdictStatus } from '../state.ts';
import type { StepContext } from './context.ts';
import { currentRequirement } from './requirement-of.ts';

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** A quote counts only if it is really on the page we fetched (whitespace aside): models paraphrase, and invent. */
export function quoteIsOnPage(finding: Finding, pageText: string | undefined): boolean {
  const quote = squash(finding.quote);
  return finding.found && quote.length >= 8 && pageText !== undefined && squash(pageText).includes(quote);
}

/** Verified findings to a verdict: agreement confirms or denies, disagreement is contradictory, hedges and silence are missing. */
export function judge(requirementId: string, verified: Finding[], pagesRead: number): Verdict {
  const yes = verified.filter((f) => f.answer === 'yes');
  const no = verified.filter((f) => f.answer === 'no');
  const unclear = verified.filter((f) => f.answer === 'unclear');
  let status: VerdictStatus;
  let confidence: number;
  if (yes.length && no.length) {
    status = 'contradictory';
    confidence = 0.5;
  } else if (yes.length || no.length) {
    status = yes.length ? 'confirmed' : 'denied';
    const agreeing = yes.length + no.length;
    confidence = Math.min(0.95, 0.7 + 0.1 * (agreeing - 1)) - (unclear.length ? 0.1 : 0);
  } else {
    status = 'missing';
    // Hedged statements are weaker evidence of absence than pages that say nothing at all.
    confidence = unclear.length ? 0.4 : Math.min(0.8, 0.4 + 0.1 * pagesRead);
  }
  return {
    requirementId,
    status,
    evidence: verified.map((f) => ({ url: f.url, quote: squash(f.quote) })),
    confidence: Math.round(confidence * 100) / 100,
  };
}

/** VERIFY: pure; keep only quotes that occur in the fetched text; confirmed / denied / contradictory / missing. */
export async function verify(state: ReviewState, _ports: Ports, _ctx: StepContext): Promise<StateUpdate> {
  const { requirement, candidates } = currentRequirement(state, 'VERIFY');
  const findings = state.findings[requirement.id] ?? [];
  const verified = findings.filter((f) => quoteIsOnPage(f, state.fetched[f.url]?.text));
  return { verdicts: { [requirement.id]: judge(requirement.id, verified, candidates.length) } };
}
