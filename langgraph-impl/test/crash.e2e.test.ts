/**
 * The crash conformance suite against LangGraph: every crash point in every configuration (naive in
 * async, sync and exit; hardened), real worker processes killed with SIGKILL, a replacement process,
 * real PostgreSQL and the real world; then each variant asked to stop (SIGTERM and a grace period) at
 * every point. Then what only LangGraph has: what each durability mode keeps.
 */
import { atTheKill, crashSpecOf, executed, type DurableMark } from '@vendor-review/conformance';
import type { CrashPointName } from '@vendor-review/instrument';
import { describe, expect, it } from 'vitest';
import { runtime } from '../harness/module.ts';

// Kills in every configuration; SIGTERM with a grace period (and a step longer than the grace) in
// each variant's baseline configuration only, to keep CI short.
const spec = crashSpecOf(runtime, { stops: ['kill', 'term'] });

const checkpoints = (marks: DurableMark[] | undefined) => (marks ?? []).filter((m) => m.kind === 'checkpoint');
const keptAtCrash = (id: string) => checkpoints(spec.get(id).durableAtCrash?.marks);
const pendingWrites = (id: string) => {
  const last = keptAtCrash(id).at(-1);
  return (spec.get(id).durableAtCrash?.marks ?? []).filter(
    (m) => m.kind === 'pending-write' && m.parentId === last?.id,
  );
};

/** Where the last durable checkpoint is, per crash point, when each step's checkpoint is committed before the next starts. */
// The matrix's points (MATRIX_CRASH_POINTS).
const SYNC_KEEPS: Record<
  Exclude<CrashPointName, 'first-step' | 'start-call' | 'before-deliver'>,
  (variant: string) => string
> = {
  boundary: () => 'FETCH',
  'after-fetch': () => 'SELECT_PAGE',
  'parallel-fetch': () => 'SELECT_PAGE',
  'mid-model': () => 'FETCH',
  'after-model': () => 'FETCH',
  'after-progress': () => 'VERIFY',
  // hardened tells the approver in ASK_APPROVAL, a node of its own before the wait
  'awaiting-approval': (v) => (v === 'naive' ? 'DRAFT' : 'ASK_APPROVAL'),
  // naive dies inside DELIVER; hardened's DELIVER only enqueued, and the drainer died after the graph ended
  'after-deliver': (v) => (v === 'naive' ? 'AWAIT_APPROVAL' : 'DELIVER'),
  // EXTRACT's own checkpoint was rolled back with the transaction the kill cut
  'mid-commit': () => 'FETCH',
};
const POINTS = Object.keys(SYNC_KEEPS) as (keyof typeof SYNC_KEEPS)[];

describe('what each durability mode kept after the kill', () => {
  it.each(POINTS)('sync keeps every completed step, no more, no less (%s)', (point) => {
    for (const id of [`langgraph/naive/sync/${point}`, `langgraph/hardened/-/${point}`]) {
      const kept = keptAtCrash(id);
      const variant = id.split('/')[1]!;
      expect(kept.at(-1)?.step, id).toBe(SYNC_KEEPS[point](variant));
      // the finished sibling's result waits as a pending write on the last checkpoint
      if (point === 'parallel-fetch') expect(pendingWrites(id).length, id).toBeGreaterThan(0);
    }
  });

  // put and putWrites are not ordered (langgraph#8039): whether EXTRACT's write was committed is a race
  it('mid-commit: the kill lands inside the commit; EXTRACT runs again exactly when its pending write had not been committed', () => {
    for (const id of ['langgraph/naive/sync/mid-commit', 'langgraph/hardened/-/mid-commit']) {
      const obs = spec.get(id);
      const held = atTheKill(obs);
      expect(held?.commitKept, id).toBe(false);
      expect(held?.resultKept, id).toBe(pendingWrites(id).length > 0);
      const { ledger } = obs;
      const modelByA = new Set(
        executed(ledger.filter((e) => e.worker === 'A' && e.kind === 'model')).map((e) => e.opKey),
      );
      const repeated = executed(ledger.filter((e) => e.worker !== 'A' && e.kind === 'model')).some((e) =>
        modelByA.has(e.opKey),
      );
      expect(repeated, id).toBe(pendingWrites(id).length === 0);
    }
  });

  it('async never keeps more than sync (what it loses depends on the load: MEASUREMENTS.md)', () => {
    for (const point of POINTS) {
      expect(keptAtCrash(`langgraph/naive/async/${point}`).length, point).toBeLessThanOrEqual(
        keptAtCrash(`langgraph/naive/sync/${point}`).length,
      );
    }
  });

  it('exit keeps nothing before the graph stops at the approval interrupt, and the interrupt after it', () => {
    for (const point of POINTS) {
      const kept = keptAtCrash(`langgraph/naive/exit/${point}`).length;
      if (point === 'awaiting-approval' || point === 'after-deliver') expect(kept, point).toBeGreaterThan(0);
      else expect(kept, point).toBe(0);
    }
  });

  it('hardened: every checkpoint after the crash was written by worker B under the lease', () => {
    for (const point of POINTS) {
      const obs = spec.get(`langgraph/hardened/-/${point}`);
      const before = new Set(obs.durableAtCrash?.marks.map((m) => m.id));
      const after = checkpoints(obs.durableFinal?.marks).filter((m) => !before.has(m.id));
      for (const m of after) expect([m.writer, m.fencingToken !== null], `${point} ${m.short}`).toEqual(['B', true]);
    }
  });
});

describe('what the drain kept when the worker was asked to stop', () => {
  it.each(['mid-model', 'after-model'])(
    'hardened %s: the node in flight finished and its checkpoint was saved before the worker left by itself',
    (point) => {
      const id = `langgraph/hardened/-/${point}/term`;
      expect(keptAtCrash(id).at(-1)?.step, id).toBe('EXTRACT');
      expect(spec.get(id).stopping).toMatchObject({ left: 'exited', exitCode: 0 });
    },
  );
});
