import { END, START, StateGraph } from '@langchain/langgraph';
import type { ReviewState } from '@vendor-review/pipeline';
import { ReviewChannels } from './channels.ts';
import { failedOr, nodePolicy } from './edges.ts';
import { createNodes, type NodeDeps } from './nodes.ts';
import { createStageNodes } from './stage-nodes.ts';

/**
 * The coarse graph: REVIEW (VALIDATE, DISCOVER and every requirement to its tracker note, one
 * checkpoint) → AWAIT_APPROVAL (interrupt) → SEND (DRAFT and DELIVER, one checkpoint) → END;
 * DEAD_LETTER on final failure. The human is asked about the verdicts; the approval must be a
 * boundary of its own in every graph (an interrupt ends a node). SEND mails straight from the node,
 * with the step's key in hardened: the outbox is a durable boundary right before the effect, and
 * this graph has none there.
 */
export function buildCoarseGraph(deps: NodeDeps) {
  const n = createNodes(deps);
  const stage = createStageNodes(deps);
  const policy = nodePolicy(deps);
  return new StateGraph(ReviewChannels)
    .addNode('REVIEW', stage.REVIEW, policy('REVIEW'))
    .addNode('AWAIT_APPROVAL', n.AWAIT_APPROVAL)
    .addNode('SEND', stage.SEND, policy('SEND'))
    .addNode('DEAD_LETTER', n.DEAD_LETTER)
    .addEdge(START, 'REVIEW')
    .addConditionalEdges('REVIEW', failedOr('AWAIT_APPROVAL'), ['AWAIT_APPROVAL', 'DEAD_LETTER'])
    .addConditionalEdges('AWAIT_APPROVAL', (s: ReviewState) => (s.approval?.approved ? 'SEND' : END), ['SEND', END])
    .addConditionalEdges('SEND', failedOr(END), [END, 'DEAD_LETTER'])
    .addEdge('DEAD_LETTER', END);
}
