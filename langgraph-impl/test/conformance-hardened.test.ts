/**
 * The conformance suite against the hardened ReviewSaver, as far as it applies. Hardened refuses
 * state it cannot read (a state channel without a schema version it knows), and the suite's
 * fixtures are channels of a graph that is not ours ({ animals: ['dog'] }, { foo: 'bar' }):
 * - getTuple (40) and list (649) build their fixture in a beforeAll that reads it back, so none of
 *   their tests can run: not registered here; the last test below shows the refusal they would meet.
 * - put (22), putWrites (6), deleteThread (1) run whole. One put test reads foo/baz back: it is
 *   registered as expected to fail, so hardened starting to return such state turns it red.
 * Counts and reasoning: README.md.
 */
import { emptyCheckpoint, type Checkpoint } from '@langchain/langgraph-checkpoint';
import { specTest } from '@langchain/langgraph-checkpoint-validation';
import { UnsupportedStateVersionError } from '@vendor-review/pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReviewSaver } from '../src/checkpointer.ts';
import { createPool } from '../src/pool.ts';
import { conformanceInitializer } from './conformance.ts';
import { freshTestDatabase } from './db.ts';

const REFUSED_BY_HARDENED = new Set(['should only store channel_values that have changed (based on newVersions)']);

// The suite registers its tests through the global `it` (this file's own: vitest isolates files).
const suiteIt = it;
(globalThis as unknown as { it: typeof it }).it = Object.assign(
  (name: string, ...rest: unknown[]) =>
    (REFUSED_BY_HARDENED.has(name) ? suiteIt.fails : suiteIt)(name, ...(rest as [() => Promise<void>])),
  suiteIt,
);

specTest(
  conformanceInitializer('ReviewSaver hardened', (pool) => new ReviewSaver(pool, { variant: 'hardened' })),
  ['put', 'putWrites', 'deleteThread'],
);

describe('the getTuple/list fixture under hardened', () => {
  let db: Awaited<ReturnType<typeof freshTestDatabase>>;
  let pool: ReturnType<typeof createPool>;
  beforeAll(async () => {
    db = await freshTestDatabase('conformance_fixture');
    pool = createPool(db.url);
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  it('is refused by hardened as state of no known schema version, and read back as stored by naive', async () => {
    const config = { configurable: { thread_id: 'fixture', checkpoint_ns: '' } };
    const checkpoint: Checkpoint = {
      ...emptyCheckpoint(),
      channel_values: { animals: ['dog'] },
      channel_versions: { animals: 1 },
    };
    const stored = await new ReviewSaver(pool, { variant: 'hardened' }).put(
      config,
      checkpoint,
      { source: 'input', step: -1, parents: {} },
      { animals: 1 },
    );
    const hardened = new ReviewSaver(pool, { variant: 'hardened' });
    await expect(hardened.getTuple(stored)).rejects.toBeInstanceOf(UnsupportedStateVersionError);
    await expect(hardened.list(config).next()).rejects.toBeInstanceOf(UnsupportedStateVersionError);
    const naive = await new ReviewSaver(pool, { variant: 'naive' }).getTuple(stored);
    expect(naive?.checkpoint.channel_values).toEqual({ animals: ['dog'] });
  });
});
