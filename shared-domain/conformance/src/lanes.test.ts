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
});
