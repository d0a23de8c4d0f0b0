import type { Ports } from '../ports.ts';
import { keywordsFor, mentionsKeyword, requirementKind } from '../requirements.ts';
import type { Requirement } from '../request.ts';
import type { PageRef, ReviewState, StateUpdate } from '../state.ts';
import type { StepContext } from './context.ts';
import { currentRequirement } from './requirement-of.ts';

/** Page kinds the requirement's catalogue entry prefers weigh most; keywords in the title or URL add to it. */
export function scorePage(page: PageRef, requirement: Requirement): number {
  const kinds = requirementKind(requirement)?.pageKinds ?? [];
  const at = kinds.indexOf(page.kind);
  const kindScore = at === -1 ? 0 : (kinds.length - at) * 10;
  const haystack = `${page.title} ${new URL(page.url).pathname.replace(/[/_-]+/g, ' ')}`;
  const keywordScore = keywordsFor(requirement).filter((k) => mentionsKeyword(haystack, k)).length * 5;
  return kindScore + keywordScore;
}

/** The best pages to read, best first; never empty: with nothing relevant, the home page. */
export function rankPages(pages: PageRef[], requirement: Requirement, max: number, baseUrl: string): string[] {
  const ranked = pages
    .map((page, order) => ({ page, order, score: scorePage(page, requirement) }))
    .filter((p) => p.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, max)
    .map((p) => p.page.url);
  if (ranked.length) return ranked;
  return [(pages.find((p) => p.kind === 'home') ?? pages[0])?.url ?? baseUrl];
}

/** SELECT_PAGE: pure; rank pages by the requirement's keywords; current.candidates = best N urls (never empty: falls back to the home page). */
export async function selectPage(state: ReviewState, _ports: Ports, _ctx: StepContext): Promise<StateUpdate> {
  const { requirement } = currentRequirement(state, 'SELECT_PAGE');
  const max = state.request.options?.maxPagesPerRequirement ?? 3;
  const candidates = rankPages(state.pages, requirement, max, state.request.vendor.baseUrl);
  return { current: { requirementId: requirement.id, candidates } };
}
