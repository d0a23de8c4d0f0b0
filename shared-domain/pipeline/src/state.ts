import type { ReviewRequest } from './request.ts';

/**
 * The review's state as both runtimes persist it: a plain object of primitives, so it survives
 * any serializer and any deploy. Bump STATE_SCHEMA_VERSION and add a migration in
 * state-migrations.ts whenever a key is renamed or its meaning changes.
 */
export const STATE_SCHEMA_VERSION = 2;

export interface PageRef {
  url: string;
  title: string;
  /** home | pricing | security | legal | trust | blog … as the vendor's sitemap labels it */
  kind: string;
}

export interface FetchedPage {
  url: string;
  title: string;
  text: string;
}

/** What the model says one page states about one requirement. */
export interface Finding {
  url: string;
  found: boolean;
  /** yes | no | unclear, as stated on the page */
  answer: 'yes' | 'no' | 'unclear';
  quote: string;
}

export type VerdictStatus = 'confirmed' | 'denied' | 'contradictory' | 'missing';

export interface Verdict {
  requirementId: string;
  status: VerdictStatus;
  /** Only quotes that really occur in the fetched page text survive verification. */
  evidence: { url: string; quote: string }[];
  confidence: number;
}

export interface Draft {
  text: string;
  model: string;
}

export interface Approval {
  approved: boolean;
  by: string;
  note?: string;
}

export interface DeliveryReceipt {
  messageId: string;
  duplicate: boolean;
  to: string;
}

export interface DeadLetter {
  step: string;
  error: string;
  attempts: number;
  input: unknown;
}

export interface ReviewState {
  schemaVersion: typeof STATE_SCHEMA_VERSION;
  runId: string;
  request: ReviewRequest;
  /** The vendor's pages from its sitemap. Named `sitemap` in schema v1. */
  pages: PageRef[];
  /** Requirement ids not yet saved, in request order. */
  pending: string[];
  /** The requirement being worked on and the pages chosen to read for it. */
  current: { requirementId: string; candidates: string[] } | null;
  fetched: Record<string, FetchedPage>;
  findings: Record<string, Finding[]>;
  verdicts: Record<string, Verdict>;
  /** Tracker note id per saved requirement. */
  progressNotes: Record<string, string>;
  draft: Draft | null;
  approval: Approval | null;
  delivery: DeliveryReceipt | null;
  failure: DeadLetter | null;
}

export type StateUpdate = Partial<Omit<ReviewState, 'schemaVersion' | 'runId'>>;

/** Keys whose updates are merged into the existing map instead of replacing it. Parallel FETCH relies on this. */
export const MERGED_KEYS = ['fetched', 'findings', 'verdicts', 'progressNotes'] as const;
type MergedKey = (typeof MERGED_KEYS)[number];

export function initialState(runId: string, request: ReviewRequest): ReviewState {
  return {
    schemaVersion: STATE_SCHEMA_VERSION,
    runId,
    request,
    pages: [],
    pending: [],
    current: null,
    fetched: {},
    findings: {},
    verdicts: {},
    progressNotes: {},
    draft: null,
    approval: null,
    delivery: null,
    failure: null,
  };
}

/** The one reducer both runtimes use: merge map keys, replace everything else. */
export function applyUpdate(state: ReviewState, update: StateUpdate): ReviewState {
  return reduce(state, update);
}

/**
 * Two updates as one, by the same rule: what a node that runs several steps returns, so that the
 * runtime applying it ends where applying them one by one would have ended.
 */
export function combineUpdates(first: StateUpdate, then: StateUpdate): StateUpdate {
  return reduce(first, then);
}

function reduce<T extends StateUpdate>(base: T, update: StateUpdate): T {
  const next: T = { ...base };
  for (const [key, value] of Object.entries(update) as [keyof StateUpdate, unknown][]) {
    if (value === undefined) continue;
    if ((MERGED_KEYS as readonly string[]).includes(key)) {
      const k = key as MergedKey;
      (next as unknown as Record<MergedKey, object>)[k] = { ...base[k], ...(value as object) };
    } else {
      (next as unknown as Record<string, unknown>)[key] = value;
    }
  }
  return next;
}

export function hasMoreRequirements(state: Pick<ReviewState, 'pending'>): boolean {
  return state.pending.length > 0;
}
