import { END, START, StateGraph } from '@langchain/langgraph';
import type { ReviewState } from '@vendor-review/pipeline';
import { ReviewChannels } from './channels.ts';
import { failedOr, nodePolicy } from './edges.ts';
import { createNodes, type NodeDeps } from './nodes.ts';

/**
 * What the fine and per-requirement graphs share, everything but the requirement loop:
 * VALIDATE → DISCOVER → … → DRAFT → AWAIT_APPROVAL (interrupt) → DELIVER (unless rejected) → END;
 * DEAD_LETTER on final failure. A graph built on it adds the loop's nodes, DISCOVER's edge into the
 * loop and the loop's edge out to DRAFT. The coarse graph runs these steps inside its stages, so it
 * is built without it (graph-coarse.ts).
 *
 * The frame's nodes come first, the loop's after: node order changes no checkpoint's content, only
 * the order of keys in its channel_versions, which PostgreSQL's jsonb does not keep anyway.
 */
export function buildGraphFrame(deps: NodeDeps) {
  const n = createNodes(deps);
  const policy = nodePolicy(deps);
  return new StateGraph(ReviewChannels)
    .addNode('VALIDATE', n.VALIDATE, policy('VALIDATE'))
    .addNode('DISCOVER', n.DISCOVER, policy('DISCOVER'))
    .addNode('DRAFT', n.DRAFT, policy('DRAFT'))
    .addNode('AWAIT_APPROVAL', n.AWAIT_APPROVAL)
    .addNode('DELIVER', n.DELIVER, policy('DELIVER'))
    .addNode('DEAD_LETTER', n.DEAD_LETTER)
    .addEdge(START, 'VALIDATE')
    .addConditionalEdges('VALIDATE', failedOr('DISCOVER'), ['DISCOVER', 'DEAD_LETTER'])
    .addConditionalEdges('DRAFT', failedOr('AWAIT_APPROVAL'), ['AWAIT_APPROVAL', 'DEAD_LETTER'])
    .addConditionalEdges('AWAIT_APPROVAL', (s: ReviewState) => (s.approval?.approved ? 'DELIVER' : END), [
      'DELIVER',
      END,
    ])
    .addConditionalEdges('DELIVER', failedOr(END), [END, 'DEAD_LETTER'])
    .addEdge('DEAD_LETTER', END);
}
