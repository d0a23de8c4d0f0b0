/**
 * The review's steps without their work: each returns the update the real step returned when the
 * same review ran once before (recorded here), and calls nothing. Our graph run on them carries
 * our state through LangGraph exactly as the review does (the same channels, the same sizes, the
 * same Sends) but does no domain work: what it costs is what LangGraph costs for our data. The
 * review less the floor less that is what our own code around the runtime adds.
 */
import type { ReviewState, StateUpdate } from '@vendor-review/pipeline';
import { DOMAIN_STEPS, type DomainSteps } from '../../src/nodes.ts';

export type Recording = Map<string, StateUpdate>;

type Stepper = (
  state: ReviewState,
  ports: unknown,
  ctx: { step: string },
  target?: { url: string },
) => Promise<StateUpdate>;

const WORKING = [
  'validate',
  'discover',
  'selectRequirement',
  'selectPage',
  'fetchPage',
  'extract',
  'verify',
  'saveProgress',
  'draft',
  'askApprover',
  'deliver',
] as const;

/** A step's identity within a run: which step, for which requirement (or round of the loop), for which page. */
function keyOf(name: string, state: ReviewState, target?: { url: string }): string {
  return `${name}|${state.current?.requirementId ?? ''}|${state.pending.length}|${target?.url ?? ''}`;
}

/** The real steps, each writing down what it returned. */
export function recordingSteps(real: DomainSteps = DOMAIN_STEPS): { steps: DomainSteps; recording: Recording } {
  const recording: Recording = new Map();
  const steps = { ...real } as Record<string, unknown>;
  for (const name of WORKING) {
    const fn = real[name] as unknown as Stepper;
    steps[name] = async (state: ReviewState, ports: unknown, ctx: { step: string }, target?: { url: string }) => {
      const update = await fn(state, ports, ctx, target);
      recording.set(keyOf(name, state, target), update);
      return update;
    };
  }
  return { steps: steps as unknown as DomainSteps, recording };
}

/** Steps that hand back the recorded updates and do nothing else. */
export function replayingSteps(recording: Recording, real: DomainSteps = DOMAIN_STEPS): DomainSteps {
  const steps = { ...real } as Record<string, unknown>;
  for (const name of WORKING) {
    steps[name] = async (state: ReviewState, _ports: unknown, _ctx: unknown, target?: { url: string }) => {
      const update = recording.get(keyOf(name, state, target));
      if (!update) throw new Error(`nothing recorded for ${keyOf(name, state, target)}`);
      return update;
    };
  }
  return steps as unknown as DomainSteps;
}
