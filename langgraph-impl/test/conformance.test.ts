/**
 * LangGraph's own checkpoint saver conformance suite (@langchain/langgraph-checkpoint-validation,
 * 718 tests) against ReviewSaver, naive: on a plain pool, and on a fenced pool (a live lease
 * claimed with claimLease, so every write transaction runs the fence). The suite calls
 * describe/it/expect as globals, so the conformance files run in their own vitest project with
 * globals on (root vitest.config.ts). Hardened: conformance-hardened.test.ts.
 */
import { validate } from '@langchain/langgraph-checkpoint-validation';
import { ReviewSaver } from '../src/checkpointer.ts';
import { claimLease, fencedPool } from '../src/lease.ts';
import { conformanceInitializer } from './conformance.ts';

validate(
  conformanceInitializer('ReviewSaver naive, plain pool', (pool) => new ReviewSaver(pool, { variant: 'naive' })),
);

validate(
  conformanceInitializer('ReviewSaver naive, fenced pool', async (pool) => {
    // The lease guards a thread of its own; the fence checks it in every transaction, whatever thread the suite writes.
    const lease = await claimLease(pool, 'conformance-lease', 'conformance#1', 3_600_000);
    return new ReviewSaver(fencedPool(pool, lease), {
      variant: 'naive',
      writer: { worker: 'conformance', fencingToken: lease.token },
    });
  }),
);
