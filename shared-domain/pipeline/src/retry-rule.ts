import { isTransient } from './errors.ts';

/**
 * The hardened retry rule, written once: every runtime's hardened variant derives its policy from
 * it, so a comparison of two runtimes never measures two copies of the rule. A runtime that cannot
 * express it exactly names the departure in its own module, with the reason.
 *
 * What is retried: only a TransientError (429, 503, a timeout, a dropped connection): it may clear
 * if tried again. A PermanentError (404, 422, an invalid request, a state this code cannot read)
 * never will, and an unknown error is a bug, which a second attempt does not fix either: both go
 * to the dead letter at once.
 *
 * What spends an attempt: only the step's OWN error. A worker killed, frozen or cut off while it
 * ran the step makes the step run again with nothing counted against `maxAttempts`, so a run
 * dead-letters after `maxAttempts` errors of its own whatever happened to the machines. A runtime
 * that counts attempts itself (Temporal's attempt number, LangGraph's in-process node attempt)
 * counts lost machines too, or forgets errors with the process: the hardened variants count the
 * step's own errors in what survives an attempt instead.
 *
 * Every attempt may meet a world burst of one or two faults (the chaos schedule), and a step may
 * meet two bursts back to back, so every kind that talks to the world rides out three errors in a
 * row; the backoff only spaces them (faults here are counted in requests, not in seconds).
 */

/** The kinds of step, by what a retry costs and what it can fix. */
export const RETRY_STEP_KINDS = ['pure', 'page', 'model', 'effect', 'delivery'] as const;
export type RetryStepKind = (typeof RETRY_STEP_KINDS)[number];

export interface Backoff {
  /** The pause after the first own error. */
  initialMs: number;
  /** Each further pause is this many times the previous one… */
  factor: number;
  /** …up to this. */
  maxMs: number;
}

export interface RetryRule {
  kind: RetryStepKind;
  /** Own errors after which the step is dead-lettered (the first attempt included). */
  maxAttempts: number;
  backoff: Backoff;
  /** The errors that are retried, in words (isRetriedBy is the test). */
  retries: string;
  /** Why these numbers. */
  why: string;
}

const TRANSIENT_ONLY = 'TransientError only (429, 503, timeouts, dropped connections)';

export const RETRY_RULES: Readonly<Record<RetryStepKind, RetryRule>> = {
  pure: {
    kind: 'pure',
    maxAttempts: 2,
    backoff: { initialMs: 200, factor: 2, maxMs: 200 },
    retries: TRANSIENT_ONLY,
    why: 'No I/O of its own: a transient error can only come from around it (a store write), so one more try tells a blip from a bug.',
  },
  page: {
    kind: 'page',
    maxAttempts: 4,
    backoff: { initialMs: 250, factor: 2, maxMs: 2_000 },
    retries: TRANSIENT_ONLY,
    why: 'A page read is free and repeatable: three errors in a row are ridden out (1.75 s of pauses); a site still failing after that is down, and the dead letter says so.',
  },
  model: {
    kind: 'model',
    maxAttempts: 4,
    backoff: { initialMs: 500, factor: 2, maxMs: 4_000 },
    retries: TRANSIENT_ONLY,
    why: 'A refused model call is not billed, an answered one is: as many tries as a page, spaced twice as far (3.5 s) because a provider’s 429 asks for room.',
  },
  effect: {
    kind: 'effect',
    maxAttempts: 5,
    backoff: { initialMs: 250, factor: 2, maxMs: 4_000 },
    retries: TRANSIENT_ONLY,
    why: 'A tracker note or an outbox row is idempotent by its key, so retrying is safe, and dead-lettering a run over a note already researched and paid for is the costliest give-up: one try more.',
  },
  delivery: {
    kind: 'delivery',
    maxAttempts: 5,
    backoff: { initialMs: 500, factor: 2, maxMs: 4_000 },
    retries: TRANSIENT_ONLY,
    why: 'Waiting for the outbox to send the mail: the outbox retries the send itself (8 tries), so this only rides out the store being briefly unreachable.',
  },
};

export function retryRuleFor(kind: RetryStepKind): RetryRule {
  return RETRY_RULES[kind];
}

/** Whether the rule retries this error at all (whatever the count). */
export function isRetriedBy(_rule: RetryRule, err: unknown): boolean {
  return isTransient(err);
}

/** The pause after the step's `ownErrors`-th own error (1 = after the first), before the next try. */
export function backoffMs(rule: RetryRule, ownErrors: number): number {
  const { initialMs, factor, maxMs } = rule.backoff;
  return Math.min(maxMs, initialMs * factor ** Math.max(0, ownErrors - 1));
}

/** True when this error, the step's `ownErrors`-th of its own, ends the step in the dead letter. */
export function givesUp(rule: RetryRule, err: unknown, ownErrors: number): boolean {
  return !isRetriedBy(rule, err) || ownErrors >= rule.maxAttempts;
}

/** The stages (several steps in one node or activity) hold paid model calls: the model kind's rule. */
const KIND_OF_STEP: Record<string, RetryStepKind> = {
  VALIDATE: 'pure',
  DISCOVER: 'page',
  SELECT_REQUIREMENT: 'pure',
  SELECT_PAGE: 'pure',
  FETCH: 'page',
  EXTRACT: 'model',
  VERIFY: 'pure',
  SAVE_PROGRESS: 'effect',
  DRAFT: 'model',
  // The approver's notification, in a node or task of its own: keyed in hardened, as a note is.
  ASK_APPROVAL: 'effect',
  AWAIT_APPROVAL: 'pure',
  // Hardened DELIVER writes the outbox row (an effect); waiting for its send is the delivery kind.
  DELIVER: 'effect',
  REVIEW: 'model',
  REQUIREMENT: 'model',
  SEND: 'model',
};

/** The kind of a step or stage by its name. A step inside a stage ("SAVE_PROGRESS (in REQUIREMENT)") takes its stage's: the stage is retried as a whole. */
export function stepKindOf(step: string): RetryStepKind {
  const kind = KIND_OF_STEP[step] ?? KIND_OF_STEP[/\(in (\w+)\)/.exec(step)?.[1] ?? ''];
  if (!kind) throw new Error(`no retry kind for step ${step}`);
  return kind;
}
