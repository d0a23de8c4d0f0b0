/**
 * The crash conformance suite against Temporal: every crash point in both variants, real worker
 * processes killed with SIGKILL, a replacement process, a real dev server, real PostgreSQL and the
 * real world. Then what only Temporal shows: which worker completed each parallel sibling.
 */
import { cellRequest, crashCatalogue, crashSpec, runThroughAdapter } from '@vendor-review/domain/conformance';
import { workerBundle } from '@vendor-review/domain/infra';
import type { RuntimeAdapter } from '@vendor-review/domain';
import { describe, expect, inject, it } from 'vitest';
import { createTemporalAdapter, TEMPORAL, WORKER_ENTRY } from '../src/index.ts';
import { startTestEnvironment, type TestEnvironment } from './support/environment.ts';

let env: TestEnvironment;
let adapter: RuntimeAdapter;

const spec = crashSpec({
  name: 'Temporal',
  scenarios: crashCatalogue([TEMPORAL]),
  run: async (scenarios) => {
    env = await startTestEnvironment();
    // The SDK loads a native bridge and its own sandbox code from its package: left external.
    const { path: workerEntry } = await workerBundle(WORKER_ENTRY, ['@temporalio/*']);
    adapter = await createTemporalAdapter({
      address: env.temporal.address,
      namespace: env.temporal.namespace,
      databaseUrl: env.db.url,
      worldUrl: env.world.url,
      bundlePath: inject('workflowBundle'),
      workerEntry,
      uiUrl: null,
    });
    return runThroughAdapter(() => ({ adapter, worldUrl: env.world.url, request: cellRequest(env.world.url) }))(
      scenarios,
    );
  },
  teardown: async () => {
    await adapter?.close();
    await env?.stop();
  },
});

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
