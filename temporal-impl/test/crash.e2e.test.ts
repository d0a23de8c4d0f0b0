/**
 * The crash conformance suite against Temporal: every crash point in both variants, real worker
 * processes killed with SIGKILL (or asked to stop: SIGTERM and a grace period), a replacement
 * process, a real dev server, real PostgreSQL and the real world. Then what only Temporal shows: which worker completed each parallel sibling.
 */
import { crashSpecOf } from '@vendor-review/conformance';
import { describe, expect, it } from 'vitest';
import { runtime } from '../harness/index.ts';

// Kills in every configuration; SIGTERM with a grace period (and a step longer than the grace) in
// each variant's baseline configuration only, to keep CI short.
const spec = crashSpecOf(runtime, { stops: ['kill', 'term'] });

describe('what the history says about the parallel siblings', () => {
  it.each(['naive', 'hardened'])("%s: the finished FETCH siblings stay A's; only the cut-off one is B's", (variant) => {
    const obs = spec.get(`temporal/${variant}/-/parallel-fetch`);
    const [, , of] = /sibling=(\d+)\/(\d+)/.exec(obs.crash?.detail ?? '') ?? [];
    expect(Number(of)).toBeGreaterThanOrEqual(2);
    const requirementOf = (long: string) => /FETCH:([a-z0-9-]+):\d+/.exec(long)?.[1];
    const completed = (obs.durableFinal?.marks ?? []).filter((m) => m.step === 'FETCH' && / done$/.test(m.long));
    const first = completed.filter((m) => requirementOf(m.long) === requirementOf(completed[0]!.long));
    expect(first.map((m) => m.writer)).toEqual([...Array(Number(of) - 1).fill('A'), 'B']);
  });
});
