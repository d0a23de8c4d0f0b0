import * as domain from '@vendor-review/pipeline';
import type { ReviewState, StageOptions, StateUpdate, StepName, Ports } from '@vendor-review/pipeline';
import { assertCurrentVersion, deadLetterOrRethrow, stepContext, type Node, type NodeDeps } from './nodes.ts';

type Stage = (state: ReviewState, ports: Ports, o: StageOptions) => Promise<StateUpdate>;

/**
 * A node that runs a domain stage (several shared steps, one checkpoint): each step inside gets
 * the context and the key it gets as a node of its own in the fine graph, so the coarser graphs
 * differ from it in where the checkpoints are, and in nothing else. A failure names the step
 * inside the stage that failed.
 */
function stageNode(deps: NodeDeps, name: string, stage: Stage): Node {
  return async (state, config) => {
    assertCurrentVersion(state);
    if (state.failure) return {};
    let inner: StepName | null = null;
    try {
      return await stage(state, deps.ports, {
        contextFor: (step, keyParts) => stepContext(deps, step, state, config, keyParts),
        onStep: (step) => (inner = step),
      });
    } catch (err) {
      return deadLetterOrRethrow(deps, err, config, {
        runId: state.runId,
        step: inner ? `${inner} (in ${name})` : name,
        // One stage node per round: the requirements still pending tell the rounds apart.
        stepKey: `${name}#${state.pending.length}`,
        input: { stage: name, current: state.current, pending: state.pending },
      });
    }
  };
}

/** The stages as nodes: REVIEW (coarse), REQUIREMENT (per-requirement), SEND (coarse). */
export function createStageNodes(deps: NodeDeps) {
  return {
    REVIEW: stageNode(deps, 'REVIEW', domain.researchAll),
    REQUIREMENT: stageNode(deps, 'REQUIREMENT', domain.researchRequirement),
    SEND: stageNode(deps, 'SEND', domain.draftAndDeliver),
  };
}
