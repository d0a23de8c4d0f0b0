import { Send, type BaseCheckpointSaver } from '@langchain/langgraph';
import { DEFAULT_GRANULARITY, hasMoreRequirements, type Granularity, type ReviewState } from '@vendor-review/pipeline';
import { failedOr, nodePolicy } from './edges.ts';
import { buildCoarseGraph } from './graph-coarse.ts';
import { buildGraphFrame } from './graph-frame.ts';
import { buildPerRequirementGraph } from './graph-per-requirement.ts';
import { createNodes, type NodeDeps } from './nodes.ts';

/**
 * VALIDATE → DISCOVER → SELECT_REQUIREMENT → SELECT_PAGE ⇉ FETCH (one task per candidate page,
 * in parallel, via Send) → EXTRACT → VERIFY → SAVE_PROGRESS → (more requirements? loop : DRAFT)
 * → AWAIT_APPROVAL (interrupt) → DELIVER (unless rejected) → END; DEAD_LETTER on final failure.
 *
 * The frame around the requirement loop is graph-frame.ts, shared with the per-requirement graph.
 * Each node is one checkpoint boundary. FETCH siblings run in one superstep, so a crash between
 * them leaves the finished siblings as pending writes on the previous checkpoint, and a resume
 * runs only the unfinished one.
 */
export function buildGraph(deps: NodeDeps) {
  const n = createNodes(deps);
  const policy = nodePolicy(deps);

  return (
    buildGraphFrame(deps)
      .addNode('SELECT_REQUIREMENT', n.SELECT_REQUIREMENT, policy('SELECT_REQUIREMENT'))
      .addNode('SELECT_PAGE', n.SELECT_PAGE, policy('SELECT_PAGE'))
      .addNode('FETCH', n.FETCH, policy('FETCH'))
      .addNode('EXTRACT', n.EXTRACT, policy('EXTRACT'))
      .addNode('VERIFY', n.VERIFY, policy('VERIFY'))
      .addNode('SAVE_PROGRESS', n.SAVE_PROGRESS, policy('SAVE_PROGRESS'))
      .addConditionalEdges('DISCOVER', failedOr('SELECT_REQUIREMENT'), ['SELECT_REQUIREMENT', 'DEAD_LETTER'])
      .addConditionalEdges('SELECT_REQUIREMENT', failedOr('SELECT_PAGE'), ['SELECT_PAGE', 'DEAD_LETTER'])
      .addConditionalEdges(
        'SELECT_PAGE',
        (s: ReviewState) => {
          if (s.failure) return 'DEAD_LETTER';
          const urls = s.current?.candidates ?? [];
          if (urls.length === 0) return 'EXTRACT';
          return urls.map((url, index) => new Send('FETCH', { ...s, target: { url, index, of: urls.length } }));
        },
        ['FETCH', 'EXTRACT', 'DEAD_LETTER'],
      )
      // A static edge joins the siblings: EXTRACT runs once, after all of them, and routes a sibling's failure.
      .addEdge('FETCH', 'EXTRACT')
      .addConditionalEdges('EXTRACT', failedOr('VERIFY'), ['VERIFY', 'DEAD_LETTER'])
      .addConditionalEdges('VERIFY', failedOr('SAVE_PROGRESS'), ['SAVE_PROGRESS', 'DEAD_LETTER'])
      .addConditionalEdges(
        'SAVE_PROGRESS',
        (s: ReviewState) => (s.failure ? 'DEAD_LETTER' : hasMoreRequirements(s) ? 'SELECT_REQUIREMENT' : 'DRAFT'),
        ['SELECT_REQUIREMENT', 'DRAFT', 'DEAD_LETTER'],
      )
  );
}

/**
 * The graph of a run's granularity (domain granularity.ts): this file's fine graph, or one of the
 * coarser ones built from the same nodes and the domain's stages. They differ in node names, not in
 * state or channels, so every caller treats them as one type.
 */
export function compileGraph(
  deps: NodeDeps,
  checkpointer: BaseCheckpointSaver,
  granularity: Granularity = DEFAULT_GRANULARITY,
) {
  const builders = { fine: buildGraph, coarse: buildCoarseGraph, 'per-requirement': buildPerRequirementGraph };
  const builder = builders[granularity](deps) as unknown as ReturnType<typeof buildGraph>;
  return builder.compile({ checkpointer });
}

export type ReviewGraph = ReturnType<typeof compileGraph>;
