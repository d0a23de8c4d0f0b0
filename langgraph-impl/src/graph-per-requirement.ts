import { END, START, StateGraph } from '@langchain/langgraph';
import { hasMoreRequirements, type ReviewState } from '@vendor-review/domain';
import { ReviewChannels } from './channels.ts';
import { failedOr, nodePolicy } from './edges.ts';
import { createNodes, type NodeDeps } from './nodes.ts';
import { createStageNodes } from './stage-nodes.ts';

/**
 * The per-requirement graph: VALIDATE → DISCOVER → REQUIREMENT (one requirement from choosing it to
 * its tracker note, one checkpoint; looped while requirements are pending) → DRAFT → AWAIT_APPROVAL
 * (interrupt) → DELIVER (unless rejected) → END; DEAD_LETTER on final failure. Everything outside
 * the requirement loop is the fine graph's own nodes.
 */
export function buildPerRequirementGraph(deps: NodeDeps) {
  const n = createNodes(deps);
  const stage = createStageNodes(deps);
  const policy = nodePolicy(deps);
  const nextRequirementOr = (s: ReviewState) =>
    s.failure ? 'DEAD_LETTER' : hasMoreRequirements(s) ? 'REQUIREMENT' : 'DRAFT';
  return new StateGraph(ReviewChannels)
    .addNode('VALIDATE', n.VALIDATE, policy)
    .addNode('DISCOVER', n.DISCOVER, policy)
    .addNode('REQUIREMENT', stage.REQUIREMENT, policy)
    .addNode('DRAFT', n.DRAFT, policy)
    .addNode('AWAIT_APPROVAL', n.AWAIT_APPROVAL)
    .addNode('DELIVER', n.DELIVER, policy)
    .addNode('DEAD_LETTER', n.DEAD_LETTER)
    .addEdge(START, 'VALIDATE')
    .addConditionalEdges('VALIDATE', failedOr('DISCOVER'), ['DISCOVER', 'DEAD_LETTER'])
    .addConditionalEdges('DISCOVER', nextRequirementOr, ['REQUIREMENT', 'DRAFT', 'DEAD_LETTER'])
    .addConditionalEdges('REQUIREMENT', nextRequirementOr, ['REQUIREMENT', 'DRAFT', 'DEAD_LETTER'])
    .addConditionalEdges('DRAFT', failedOr('AWAIT_APPROVAL'), ['AWAIT_APPROVAL', 'DEAD_LETTER'])
    .addConditionalEdges('AWAIT_APPROVAL', (s: ReviewState) => (s.approval?.approved ? 'DELIVER' : END), [
      'DELIVER',
      END,
    ])
    .addConditionalEdges('DELIVER', failedOr(END), [END, 'DEAD_LETTER'])
    .addEdge('DEAD_LETTER', END);
}
