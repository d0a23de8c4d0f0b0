/**
 * The crash conformance suite against Restate: every crash point in both variants, real endpoint
 * processes killed with SIGKILL, a replacement endpoint behind the same deployment address, the
 * real Restate server, PostgreSQL and the world. Then what the server's journal says.
 */
import {
  crashCatalogue,
  crashSpec,
  runThroughAdapter,
  runtimeUnderTest,
  type RuntimeUnderTest,
} from '@vendor-review/conformance';
import { describe, expect, it } from 'vitest';
import { RESTATE_INFO } from '../harness/index.ts';
import { runtime } from '../harness/module.ts';

let rs: RuntimeUnderTest;

const spec = crashSpec({
  name: 'Restate',
  scenarios: crashCatalogue([RESTATE_INFO]),
  run: async (scenarios) => {
    rs = await runtimeUnderTest(runtime, { name: 'crash' });
    return runThroughAdapter(() => rs.env())(scenarios);
  },
  teardown: () => rs?.stop(),
});

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
