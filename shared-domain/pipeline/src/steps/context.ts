import { createHash } from 'node:crypto';
import type { RunIdentity } from '../identity.ts';
import type { CallMeta } from '../ports.ts';
import type { StepName } from './names.ts';

/** What a runtime tells a step about the call in progress. Steps never see LangGraph or Temporal objects. */
export interface StepContext {
  run: RunIdentity;
  step: StepName;
  /** 1-based attempt number as the runtime counts it (a retry policy's attempt, or a Temporal activity attempt). */
  attempt: number;
  /** Set by the hardened variants; the naive ones leave it out and the receiver cannot collapse duplicates. */
  idempotencyKey?: string;
  /** Label of the worker process ("A", "B"…), for the ledger's timelines. */
  worker: string;
}

export function callMeta(ctx: StepContext): CallMeta {
  return {
    runId: ctx.run.runId,
    step: ctx.step,
    attempt: ctx.attempt,
    ...(ctx.idempotencyKey ? { idempotencyKey: ctx.idempotencyKey } : {}),
    worker: ctx.worker,
  };
}

/**
 * A key that is the same every time the same logical operation is re-executed and different for
 * every other operation: derived from the durable identity (thread, or workflow run + activity id)
 * and the step, never from time or randomness.
 */
export function deriveIdempotencyKey(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32);
}
