/**
 * Where a run's durable boundaries are: the same shared steps, grouped into fewer or more nodes
 * (LangGraph) or activities (Temporal). A boundary is a trade. Work done since the last one is
 * repeated after a crash; every boundary costs a checkpoint or a history event, and the time to
 * write it, whether or not anything ever crashes.
 *
 * `per-call` (every external call its own boundary) is not listed: in this pipeline `fine` already
 * gives each external call a boundary of its own (each page fetch, each model call, each note, the
 * mail), so `per-call` could only add boundaries inside a call, which no runtime can make durable
 * (the mid-model crash point shows the provider billing a call whose answer nobody kept).
 */
export type Granularity = 'coarse' | 'per-requirement' | 'fine';

/** Coarsest first: the order of the sweep, the table and the chart. */
export const GRANULARITIES: readonly Granularity[] = ['coarse', 'per-requirement', 'fine'];

/** What a run gets when it does not ask: today's graph, a boundary after every step. */
export const DEFAULT_GRANULARITY: Granularity = 'fine';

export const GRANULARITY_INFO: Record<Granularity, { title: string; boundaries: string }> = {
  coarse: {
    title: 'one node for the research, one for the reply',
    boundaries:
      'REVIEW (validate, discover, and for every requirement: pages, fetch, extract, verify, tracker note) | AWAIT_APPROVAL | SEND (draft and mail, sent straight from the node)',
  },
  'per-requirement': {
    title: 'one node per requirement',
    boundaries:
      'VALIDATE | DISCOVER | REQUIREMENT ×n (pages, fetch, extract, verify, tracker note) | DRAFT | AWAIT_APPROVAL | DELIVER',
  },
  fine: {
    title: 'one node per step (today’s graph)',
    boundaries:
      'VALIDATE | DISCOVER | per requirement: SELECT_REQUIREMENT | SELECT_PAGE | FETCH ×pages | EXTRACT | VERIFY | SAVE_PROGRESS | DRAFT | AWAIT_APPROVAL | DELIVER',
  },
};

export function isGranularity(value: unknown): value is Granularity {
  return typeof value === 'string' && (GRANULARITIES as readonly string[]).includes(value);
}

/** The granularity a configuration asks for, the default when it says nothing. */
export function granularityOf(config: { granularity?: Granularity | undefined }): Granularity {
  return config.granularity ?? DEFAULT_GRANULARITY;
}
