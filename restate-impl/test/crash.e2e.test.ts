/**
 * The crash conformance suite against Restate: every crash point in both variants, real endpoint
 * processes killed with SIGKILL, a replacement endpoint behind the same deployment address, the
 * real Restate server, PostgreSQL and the world. Then what the server's journal says.
 */
import { crashSpecOf } from '@vendor-review/conformance';
import { describe, expect, it } from 'vitest';
import { runtime } from '../harness/module.ts';

const spec = crashSpecOf(runtime);

describe("what Restate's journal kept at the kill", () => {
  it.each(['naive', 'hardened'])(
    '%s: the finished FETCH siblings have their results recorded at the kill, the cut-off one has not',
    (variant) => {
      const obs = spec.get(`restate/${variant}/-/parallel-fetch`);
      const [, , of] = /sibling=(\d+)\/(\d+)/.exec(obs.crash?.detail ?? '') ?? [];
      expect(Number(of)).toBeGreaterThanOrEqual(2);
      const fetches = (obs.durableAtCrash?.marks ?? []).filter((m) => m.step === 'FETCH');
      const lastReq = /FETCH:([a-z0-9-]+):/.exec(fetches.at(-1)?.long ?? '')?.[1];
      expect(fetches.filter((m) => m.long.includes(`FETCH:${lastReq}:`)).length).toBe(Number(of) - 1);
    },
  );
});
