import { hasMoreRequirements, type ReviewState } from '@vendor-review/pipeline';
import { nodePolicy } from './edges.ts';
import { buildGraphFrame } from './graph-frame.ts';
import type { NodeDeps } from './nodes.ts';
import { createStageNodes } from './stage-nodes.ts';

/**
 * The per-requirement graph: VALIDATE → DISCOVER → REQUIREMENT (one requirement from choosing it to
 * its tracker note, one checkpoint; looped while requirements are pending) → DRAFT → AWAIT_APPROVAL
 * (interrupt) → DELIVER (unless rejected) → END; DEAD_LETTER on final failure. Everything outside
 * the requirement loop is the frame the fine graph has too (graph-frame.ts).
 */
export function buildPerRequirementGraph(deps: NodeDeps) {
  const stage = createStageNodes(deps);
  const policy = nodePolicy(deps);
  const nextRequirementOr = (s: ReviewState) =>
    s.failure ? 'DEAD_LETTER' : hasMoreRequirements(s) ? 'REQUIREMENT' : 'DRAFT';
  return buildGraphFrame(deps)
    .addNode('REQUIREMENT', stage.REQUIREMENT, policy('REQUIREMENT'))
    .addConditionalEdges('DISCOVER', nextRequirementOr, ['REQUIREMENT', 'DRAFT', 'DEAD_LETTER'])
    .addConditionalEdges('REQUIREMENT', nextRequirementOr, ['REQUIREMENT', 'DRAFT', 'DEAD_LETTER']);
}
