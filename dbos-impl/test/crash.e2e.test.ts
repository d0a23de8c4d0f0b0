/**
 * The crash conformance suite against DBOS: every crash point in both variants, real worker
 * processes killed with SIGKILL, a replacement process under the same executor id and
 * application version, real PostgreSQL and the real world. Then what DBOS's journal says.
 */
import { crashSpecOf } from '@vendor-review/conformance';
import { describe, expect, it } from 'vitest';
import { runtime } from '../harness/module.ts';

const spec = crashSpecOf(runtime);

describe("what DBOS's step journal kept at the kill", () => {
  it.each(['naive', 'hardened'])(
    '%s: the finished FETCH siblings are journaled at the kill, the cut-off one is not',
    (variant) => {
      const obs = spec.get(`dbos/${variant}/-/parallel-fetch`);
      const [, , of] = /sibling=(\d+)\/(\d+)/.exec(obs.crash?.detail ?? '') ?? [];
      expect(Number(of)).toBeGreaterThanOrEqual(2);
      const fetches = (obs.durableAtCrash?.marks ?? []).filter((m) => m.step === 'FETCH');
      const lastReq = /FETCH:([a-z0-9-]+):/.exec(fetches.at(-1)?.long ?? '')?.[1];
      expect(fetches.filter((m) => m.long.includes(`FETCH:${lastReq}:`)).length).toBe(Number(of) - 1);
    },
  );
});
