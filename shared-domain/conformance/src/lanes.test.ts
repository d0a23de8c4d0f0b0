import { describe, expect, it } from 'vitest';
import { inLanes } from './lanes.ts';

const tick = () => new Promise((r) => setImmediate(r));

describe('inLanes', () => {
  it('runs at most `concurrency` at once and returns results in the jobs’ order', async () => {
    let now = 0;
    let most = 0;
    const out = await inLanes([5, 1, 4, 2, 3], { concurrency: 2 }, async (n) => {
      most = Math.max(most, ++now);
      for (let i = 0; i < n; i++) await tick();
      now--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30]);
    expect(most).toBe(2);
  });

  it('never overlaps two jobs of one exclusive group', async () => {
    const live = new Set<string>();
    let clash = false;
    await inLanes(['a1', 'a2', 'b1', 'a3'], { concurrency: 4, exclusive: (j) => j[0]! }, async (j) => {
      if (live.has(j[0]!)) clash = true;
      live.add(j[0]!);
      await tick();
      live.delete(j[0]!);
    });
    expect(clash).toBe(false);
  });

  it('reports each finish, and the first error ends the batch', async () => {
    const seen: number[] = [];
    await inLanes([1, 2], { concurrency: 1, onDone: (_r, done) => seen.push(done) }, async (n) => n);
    expect(seen).toEqual([1, 2]);
    await expect(
      inLanes([1, 2], { concurrency: 2 }, async (n) => {
        if (n === 2) throw new Error('two');
        return n;
      }),
    ).rejects.toThrow('two');
  });

  it('starts the longest expected job first, unknown ones after in their order', async () => {
    const order: string[] = [];
    const expected: Record<string, number | null> = { a: 1, b: null, c: 30, d: 5, e: null };
    const out = await inLanes(
      ['a', 'b', 'c', 'd', 'e'],
      { concurrency: 1, expectedMs: (j) => expected[j]! },
      async (j) => {
        order.push(j);
        return j.toUpperCase();
      },
    );
    expect(order).toEqual(['c', 'd', 'a', 'b', 'e']);
    expect(out).toEqual(['A', 'B', 'C', 'D', 'E']);
  });

  it('fills the lanes it gains when `widen` settles, without waiting for a job to finish', async () => {
    let lanes = 1;
    let widen!: () => void;
    const widened = new Promise<void>((r) => (widen = r));
    let now = 0;
    let most = 0;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const batch = inLanes([1, 2, 3], { concurrency: () => lanes, widen: widened }, async () => {
      most = Math.max(most, ++now);
      await held;
      now--;
    });
    await tick();
    expect(most).toBe(1);
    lanes = 3;
    widen();
    await tick();
    expect(now).toBe(3);
    release();
    await batch;
  });

  it('takes one more job beyond the lanes per look while the machine has room, up to `most`', async () => {
    let now = 0;
    let most = 0;
    let looks = 0;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const batch = inLanes(
      [1, 2, 3, 4, 5],
      {
        concurrency: 1,
        most: 3,
        recheckMs: 5,
        room: () => {
          looks++;
          return true;
        },
      },
      async () => {
        most = Math.max(most, ++now);
        await held;
        now--;
      },
    );
    await tick();
    expect(now).toBe(2); // one more at the first look, the next only a recheck later
    await new Promise((r) => setTimeout(r, 60));
    expect(now).toBe(3);
    expect(looks).toBeGreaterThan(1);
    release();
    await batch;
    expect(most).toBe(3);
  });

  it('takes nothing beyond the lanes while the machine has no room', async () => {
    let now = 0;
    let most = 0;
    await inLanes([1, 2, 3], { concurrency: 1, most: 3, recheckMs: 1, room: () => false }, async () => {
      most = Math.max(most, ++now);
      await new Promise((r) => setTimeout(r, 10));
      now--;
    });
    expect(most).toBe(1);
  });

  it('starts an exclusive group by the length of all its jobs, which run one after the other', async () => {
    const order: string[] = [];
    const expected: Record<string, number> = { long: 10, r1: 4, r2: 4, r3: 4, short: 2 };
    await inLanes(
      ['short', 'r1', 'long', 'r2', 'r3'],
      { concurrency: 1, expectedMs: (j) => expected[j]!, exclusive: (j) => (j.startsWith('r') ? 'r' : null) },
      async (j) => {
        order.push(j);
      },
    );
    expect(order).toEqual(['r1', 'r2', 'r3', 'long', 'short']);
  });
});
