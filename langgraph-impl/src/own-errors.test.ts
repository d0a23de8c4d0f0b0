import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { PermanentError, retryRuleFor, TransientError, type Ports } from '@vendor-review/pipeline';
import { describe, expect, it } from 'vitest';
import { deadLetterOrRethrow, type NodeDeps } from './nodes.ts';

/** The node wrapper's give-up decision, with the durable count faked: a unit test of the rule's use, not of PostgreSQL. */
const cap = retryRuleFor('page').maxAttempts;
const transient = new TransientError('HTTP 503', 'http-503', 503);
const at = { runId: 'r1', step: 'FETCH', stepKey: 'FETCH:soc2:https://x', input: { target: 'x' } };
const config = (nodeAttempt: number, aborted = false): LangGraphRunnableConfig =>
  ({ executionInfo: { nodeAttempt }, signal: aborted ? AbortSignal.abort() : undefined }) as LangGraphRunnableConfig;

function deps(durableCount: number | Error): NodeDeps & { counted: string[] } {
  const counted: string[] = [];
  return {
    variant: 'hardened',
    ports: {} as Ports,
    worker: 'A',
    counted,
    ownErrors: async ({ stepKey }) => {
      counted.push(stepKey);
      if (durableCount instanceof Error) throw durableCount;
      return durableCount;
    },
  };
}

describe('deadLetterOrRethrow (hardened)', () => {
  it('the durable count decides: a fresh worker on its first attempt dead-letters when the step already had its cap of own errors', async () => {
    const d = deps(cap);
    const update = await deadLetterOrRethrow(d, transient, config(1), at);
    expect(update.failure).toMatchObject({ step: 'FETCH', attempts: cap });
    expect(d.counted).toEqual([at.stepKey]);
  });

  it('below the cap the error is rethrown for LangGraph to try again, however many workers died before', async () => {
    await expect(deadLetterOrRethrow(deps(cap - 1), transient, config(1), at)).rejects.toBe(transient);
  });

  it('never gives up later than LangGraph’s own loop: the in-process attempt is a floor', async () => {
    const update = await deadLetterOrRethrow(deps(new Error('db down')), transient, config(cap), at);
    expect(update.failure).toMatchObject({ attempts: cap });
  });

  it('a permanent error is dead-lettered at once, with its count', async () => {
    const update = await deadLetterOrRethrow(deps(1), new PermanentError('HTTP 422', 'http-422', 422), config(1), at);
    expect(update.failure).toMatchObject({ attempts: 1 });
  });

  it('an aborted graph (lease lost: another worker owns the run) is not the step’s error: rethrown, not counted', async () => {
    const d = deps(cap);
    await expect(deadLetterOrRethrow(d, transient, config(1, true), at)).rejects.toBe(transient);
    expect(d.counted).toEqual([]);
  });
});
