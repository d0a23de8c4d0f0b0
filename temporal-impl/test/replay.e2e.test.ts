/**
 * State outlives code, Temporal's way: histories recorded from v1 runs (test/histories, recorded
 * for real by test/record-histories.ts) are replayed through today's workflow code. The v2 change
 * (VERIFY as a local activity) is guarded by patched(), so they replay cleanly; the same change
 * without the guard is caught as a DeterminismViolationError before it ever reaches a live run.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { Worker, type ReplayResult } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { installRuntime } from '../src/runtime.ts';

const HISTORIES_DIR = fileURLToPath(new URL('./histories/', import.meta.url));
const UNPATCHED = fileURLToPath(new URL('../harness/versions/v2-unpatched.ts', import.meta.url));
const bundlePath = inject('workflowBundle');

// The replayer reports each failure to us; core's own warning for the same event is noise here.
installRuntime('ERROR');

const fixtures = readdirSync(HISTORIES_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();

function histories() {
  return fixtures.map((file) => ({
    workflowId: file,
    history: historyFromJSON(JSON.parse(readFileSync(`${HISTORIES_DIR}${file}`, 'utf8'))),
  }));
}

async function replayAll(options: Parameters<typeof Worker.runReplayHistories>[0]): Promise<ReplayResult[]> {
  const results: ReplayResult[] = [];
  for await (const result of Worker.runReplayHistories(options, histories())) results.push(result);
  return results;
}

describe('replay of v1 histories', () => {
  it('has the recorded fixtures: naive, hardened approved, rejected and dead-lettered', () => {
    expect(fixtures).toEqual([
      'v1-hardened-approved.json',
      'v1-hardened-dead-letter.json',
      'v1-hardened-rejected.json',
      'v1-naive-approved.json',
    ]);
  });

  it('today’s code (v2, change guarded by patched()) replays every v1 history without error', async () => {
    const results = await replayAll({ workflowBundle: { codePath: bundlePath } });
    expect(results.map((r) => [r.workflowId, r.error?.message ?? null])).toEqual(fixtures.map((f) => [f, null]));
  });

  it('the same change without patched() fails replay with a DeterminismViolationError', async () => {
    const results = await replayAll({ workflowsPath: UNPATCHED });
    expect(results).toHaveLength(fixtures.length);
    for (const r of results) {
      expect(r.error, `${r.workflowId} replayed cleanly through unpatched code`).toBeInstanceOf(
        DeterminismViolationError,
      );
      expect(r.error!.message).toMatch(/TMPRL1100/);
      process.stdout.write(`${r.workflowId}: ${/\[TMPRL1100\][^"]*/.exec(r.error!.message)?.[0]}\n`);
    }
  });
});
