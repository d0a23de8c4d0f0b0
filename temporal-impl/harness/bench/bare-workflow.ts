/**
 * Temporal itself, without our code: a workflow of the review's shape (the same activities in the
 * same order, the FETCH fan-out, VERIFY as a local activity, the approval signal and the wait for
 * it) whose activities do nothing and carry no state. What it costs per step is what the runtime
 * costs; the review less the plain runner's floor less this is what our workflow, activities and
 * their arguments add. And a chain of no-op activities: one activity's round trip, the unit the
 * bench states Temporal's overheads in. Used by `pnpm bench` only; runs in the workflow sandbox.
 */
import { condition, proxyActivities, proxyLocalActivities, setHandler } from '@temporalio/workflow';
import { approveSignal } from '../../src/definitions.ts';
import type { BareActivities } from './bare-activities.ts';

const TIMEOUTS = { startToCloseTimeout: '10s', heartbeatTimeout: '2s' } as const;
const acts = proxyActivities<BareActivities>(TIMEOUTS);
const local = proxyLocalActivities<BareActivities>({ startToCloseTimeout: '10s' });

export interface BareInput {
  requirements: number;
  pages: number;
}

/** The review's activities, none of its code. Returns the logical steps it went through. */
export async function bareReview(input: BareInput): Promise<number> {
  let approved = false;
  setHandler(approveSignal, () => {
    approved = true;
  });
  let steps = 0;
  const one = async () => {
    await acts.noop();
    steps++;
  };
  await one(); // VALIDATE
  await one(); // DISCOVER
  for (let r = 0; r < input.requirements; r++) {
    await one(); // SELECT_REQUIREMENT
    await one(); // SELECT_PAGE
    await Promise.all(Array.from({ length: input.pages }, () => acts.noop())); // FETCH
    steps++;
    await one(); // EXTRACT
    await local.noop(); // VERIFY
    steps++;
    await one(); // SAVE_PROGRESS
  }
  await one(); // DRAFT
  await acts.noop(); // AWAIT_APPROVAL: the question
  await condition(() => approved);
  await one(); // AWAIT_APPROVAL: the decision
  await one(); // DELIVER
  return steps;
}

/** `n` no-op activities one after another: n activity round trips, each with its workflow task. */
export async function noopChain(n: number): Promise<number> {
  for (let i = 0; i < n; i++) await acts.noop();
  return n;
}
