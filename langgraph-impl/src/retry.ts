import type { RetryPolicy } from '@langchain/langgraph';
import { isTransient, retryRuleFor, stepKindOf, type RetryRule } from '@vendor-review/pipeline';
import { createStepErrors } from '@vendor-review/worker-io';
import type pg from 'pg';
import { TABLES } from './sql.ts';

/**
 * The hardened variant's retries, derived from the one rule (domain retry-rule.ts): per node, the
 * rule of its step's kind. Only a TransientError is retried; a PermanentError and any unexpected
 * error go straight to the dead letter.
 *
 * The departure, and why: LangGraph's retry loop is in-process, so its attempt count starts again
 * in every worker that resumes the node, and a step could meet more than the cap of its own errors
 * across workers killed mid-retry. So the cap is not LangGraph's: the node wrapper (nodes.ts)
 * counts the step's own errors in PostgreSQL (lg_step_errors, keyed by run and step) and
 * dead-letters when they reach the rule's cap; LangGraph's policy only spaces the tries, with the
 * rule's backoff, and its maxAttempts equals the cap, so the durable count always decides first.
 */
export function nodeRetryPolicy(node: string): RetryPolicy {
  const { maxAttempts, backoff } = ruleOf(node);
  return {
    maxAttempts,
    initialInterval: backoff.initialMs,
    backoffFactor: backoff.factor,
    maxInterval: backoff.maxMs,
    // LangGraph's jitter adds up to a whole second per retry; one worker per thread has nobody to de-synchronise from.
    jitter: false,
    retryOn: isTransient,
    logWarning: false,
  };
}

/** The rule of a node or of a step reported inside a stage ("EXTRACT (in REVIEW)"). */
export function ruleOf(step: string): RetryRule {
  return retryRuleFor(stepKindOf(step));
}

/** lg_step_errors: the step's own errors, which outlive the worker (migration 5 in sql.ts). */
export const LG_STEP_ERRORS = createStepErrors(TABLES.stepErrors);

/** What a node reports an own error to; returns the count of the step's own errors so far. */
export type OwnErrorCounter = (o: { runId: string; stepKey: string; error: string }) => Promise<number>;

export function ownErrorCounter(pool: pg.Pool): OwnErrorCounter {
  return ({ runId, stepKey, error }) => LG_STEP_ERRORS.record(pool, { runKey: runId, stepKey, error });
}
