import { PermanentError } from '../errors.ts';
import type { Ports } from '../ports.ts';
import { draftPrompt } from '../prompts.ts';
import type { ReviewState, StateUpdate, Verdict } from '../state.ts';
import { callMeta, type StepContext } from './context.ts';

/** Verdicts in request order; drafting before every requirement has one is a wiring bug. */
export function orderedVerdicts(state: ReviewState): { verdict: Verdict; question: string }[] {
  return state.request.requirements.map((r) => {
    const verdict = state.verdicts[r.id];
    if (!verdict) throw new PermanentError(`DRAFT: requirement "${r.id}" has no verdict yet`, 'draft-too-early');
    return { verdict, question: r.question };
  });
}

/** The part of the review that code writes: the table is exact whatever the model says. */
export function verdictTable(state: ReviewState, rows: { verdict: Verdict }[]): string {
  const pathOf = (url: string) => {
    const base = new URL(state.request.vendor.baseUrl.replace(/\/?$/, '/'));
    const u = new URL(url);
    return u.origin === base.origin && u.pathname.startsWith(base.pathname)
      ? `/${u.pathname.slice(base.pathname.length)}`
      : url;
  };
  return [
    '| Requirement | Verdict | Confidence | Evidence |',
    '|---|---|---|---|',
    ...rows.map(
      ({ verdict: v }) =>
        `| ${v.requirementId} | ${v.status} | ${v.confidence.toFixed(2)} | ${[...new Set(v.evidence.map((e) => pathOf(e.url)))].join(', ') || '-'} |`,
    ),
  ].join('\n');
}

/** DRAFT: one model call that writes the review from the verdicts; draft. */
export async function draft(state: ReviewState, ports: Ports, ctx: StepContext): Promise<StateUpdate> {
  const rows = orderedVerdicts(state);
  const vendorName = state.request.vendor.name;
  const reply = await ports.model.complete(draftPrompt({ vendorName, verdicts: rows }), callMeta(ctx));
  const text = [
    `# Vendor review: ${vendorName}`,
    '',
    reply.text.trim(),
    '',
    '## Verdicts',
    '',
    verdictTable(state, rows),
    '',
  ].join('\n');
  return { draft: { text, model: reply.model } };
}
