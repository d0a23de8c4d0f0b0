/**
 * A retry row is the retry rule's answer only when the run reached it: a worker that dies of
 * something else (here before its first call) leaves the run running, and the row says so instead
 * of "failed at once" (a loaded CI run once judged a hardened row that way: 0 attempts, still running).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startWorld, type World } from '@vendor-review/world';
import type { RunConfig, RunHandle, RuntimeAdapter } from '../adapter.ts';
import { FAKE_RUNTIMES } from '../fixtures.ts';
import { cellRequest } from '../request.ts';
import { runHazard } from './catalogue.ts';

let world: World;
beforeAll(async () => {
  world = await startWorld({});
});
afterAll(async () => world?.stop());

/** A runtime whose run never leaves `running` and whose worker dies at once, of something else. */
function dyingWorker(): RuntimeAdapter {
  const entry = join(mkdtempSync(join(tmpdir(), 'dying-worker-')), 'worker.mjs');
  writeFileSync(entry, "console.error('Error: cannot reach the store'); process.exit(3);\n");
  const never = () => {
    throw new Error('not asked of this row');
  };
  return {
    ...FAKE_RUNTIMES.checkpointer,
    workerExitsWhenDone: false,
    isRetryableExit: () => false,
    startRun: async (_request: unknown, config: RunConfig, o?: { runId?: string }) =>
      ({ runId: o!.runId!, config }) as RunHandle,
    workerSpec: () => ({ entry, env: {} }),
    status: async () => ({ status: 'running' }),
    inspect: async () => ({ status: 'running', state: null }),
    approve: never,
    durableRecord: async () => null,
    close: async () => undefined,
  } as unknown as RuntimeAdapter;
}

it.each(['retry-transient', 'retry-lost-workers'] as const)(
  '%s: a worker that dies with the run unfinished is named, not judged as a retry rule',
  async (hazard) => {
    const observed = await runHazard(
      { id: `${hazard}/acme/hardened`, hazard, runtime: 'acme', variant: 'hardened', deviations: [] },
      { adapter: dyingWorker(), worldUrl: world.url, request: cellRequest(world.url), boundMs: 20_000 },
    );
    expect(observed.verdict).toBe('worker-died');
    expect(JSON.stringify(observed.figures)).toMatch(/code 3\): Error: cannot reach the store/);
  },
);
