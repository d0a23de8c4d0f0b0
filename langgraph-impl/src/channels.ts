import { Annotation } from '@langchain/langgraph';
import { STATE_SCHEMA_VERSION, type ReviewState } from '@vendor-review/pipeline';

/**
 * LangGraph channels mirroring ReviewState, one channel per key, with the domain's applyUpdate
 * semantics: map keys merge (so parallel FETCH siblings each add their page), everything else is
 * replaced. Replace is a reducer rather than LastValue so that two writes in one superstep do not
 * raise InvalidUpdateError; no two of our nodes write the same replaced key in one step anyway.
 */
const replace = <T>(fallback: () => T) => Annotation<T>({ reducer: (_old: T, next: T) => next, default: fallback });
const merge = <T extends object>() =>
  Annotation<T>({ reducer: (old: T, next: T) => ({ ...old, ...next }), default: () => ({}) as T });

export const ReviewChannels = Annotation.Root({
  schemaVersion: replace<ReviewState['schemaVersion']>(() => STATE_SCHEMA_VERSION),
  runId: replace<string>(() => ''),
  request: replace<ReviewState['request']>(() => null as unknown as ReviewState['request']),
  pages: replace<ReviewState['pages']>(() => []),
  pending: replace<ReviewState['pending']>(() => []),
  current: replace<ReviewState['current']>(() => null),
  fetched: merge<ReviewState['fetched']>(),
  findings: merge<ReviewState['findings']>(),
  verdicts: merge<ReviewState['verdicts']>(),
  progressNotes: merge<ReviewState['progressNotes']>(),
  draft: replace<ReviewState['draft']>(() => null),
  approval: replace<ReviewState['approval']>(() => null),
  delivery: replace<ReviewState['delivery']>(() => null),
  failure: replace<ReviewState['failure']>(() => null),
});

/** The state keys, i.e. the channels that hold review state (as opposed to LangGraph's own). */
export const STATE_CHANNELS = Object.keys(ReviewChannels.spec) as (keyof ReviewState)[];
