/**
 * The crash conformance suite against LangGraph's Functional API: every crash point in every
 * configuration (naive in async, sync and exit; hardened), real worker processes killed with
 * SIGKILL, a replacement process, real PostgreSQL and the real world. Then what the checkpoint
 * tables show of the entrypoint's re-execution model.
 */
import { BEFORE_THE_GATE, computeEvidence, crashSpecOf, type CellObservation } from '@vendor-review/conformance';
import { MATRIX_CRASH_POINTS, type CrashPointName } from '@vendor-review/instrument';
import { describe, expect, it } from 'vitest';
import { ENTRYPOINT_NAME } from '../src/functional/review.ts';
import { runtime } from '../harness/functional/module.ts';

/** Every run of every cell (a cell whose outcome varies runs three times; spec.get keeps one). */
let observed: CellObservation[] = [];

const only = process.env.LF_CELLS; // a comma-separated filter on scenario ids, for a quick look by hand
// Kills in every configuration; SIGTERM with a grace period (and a step longer than the grace) in
// each variant's baseline configuration, as the StateGraph's suite does.
const spec = crashSpecOf(runtime, {
  stops: ['kill', 'term'],
  filter: (s) => !only || s.crashPoint === null || only.split(',').some((f) => s.id.includes(f)),
  onObserved: (all) => (observed = all),
});

/** One line per crashed cell, for MEASUREMENTS.md: what was durable, what ran again (from the ledger). */
function summary(): string {
  const lines = observed.map((obs) => {
    const base = spec.all().find((b) => b.scenario.id === obs.scenario.baselineId) ?? null;
    const e = computeEvidence(obs, base);
    const kept = (obs.durableAtCrash?.marks ?? []).map((m) => m.short).join(' · ');
    return `${obs.scenario.id} | ${obs.status} | ${e.lastDurableShort} | ${e.firstAfterResumeShort} | ${e.repeatedOperations.join('; ') || '—'} | +${e.extraModelCalls} model | dup effect ${e.sideEffectDuplicated} | =base ${e.finalMatchesBaseline} | kept: ${kept}`;
  });
  return lines.join('\n');
}

const marksAtCrash = (id: string) => spec.get(id).durableAtCrash?.marks ?? [];
const resultsAtCrash = (id: string, step: string) =>
  marksAtCrash(id).filter((m) => m.kind === 'pending-write' && m.step === step).length;
const cells = (point: string) =>
  spec
    .all()
    .filter((o) => o.scenario.crashPoint === point)
    .map((o) => o.scenario.id);

describe('what the entrypoint left in the checkpoint tables', () => {
  it('summary', () => {
    if (process.env.LF_SUMMARY) console.log(summary());
    expect(spec.all().length).toBeGreaterThan(0);
  });

  it.each(BEFORE_THE_GATE)(
    'one superstep: before the gate, every finished task is a pending write on the input checkpoint, no checkpoint of its own (%s)',
    (point) => {
      for (const id of cells(point)) {
        const checkpoints = marksAtCrash(id).filter((m) => m.kind === 'checkpoint');
        expect(checkpoints.length, id).toBeLessThanOrEqual(1);
        if (checkpoints[0]) expect(checkpoints[0].short, id).toBe('cp -1 input');
        const writes = marksAtCrash(id).filter((m) => m.kind === 'pending-write');
        for (const w of writes) expect(w.parentId, `${id} ${w.short}`).toBe(checkpoints[0]?.id);
      }
    },
  );

  it("hardened: a finished task's result is committed before the next task starts (both page fetches kept at the boundary)", () => {
    const id = 'langgraph-functional/hardened/-/boundary';
    expect(resultsAtCrash(id, 'FETCH'), id).toBe(2);
    for (const step of ['VALIDATE', 'DISCOVER', 'SELECT_REQUIREMENT', 'SELECT_PAGE'])
      expect(resultsAtCrash(id, step), `${id} ${step}`).toBe(1);
  });

  it('hardened keeps at least as many task results as naive sync at every crash point', () => {
    for (const point of MATRIX_CRASH_POINTS.filter((p) => cells(p).length)) {
      const hardened = marksAtCrash(`langgraph-functional/hardened/-/${point}`).length;
      for (const o of spec.all().filter((c) => c.scenario.id.startsWith(`langgraph-functional/naive/sync/${point}`)))
        expect(o.durableAtCrash?.marks.length ?? 0, o.scenario.id).toBeLessThanOrEqual(hardened);
    }
  });
});

/** The step in flight at each point, which a drain lets finish (and the page fetches come in pairs). */
const IN_FLIGHT: Partial<Record<CrashPointName, [string, number]>> = {
  boundary: ['EXTRACT', 1],
  'after-fetch': ['FETCH', 2],
  'parallel-fetch': ['FETCH', 2],
  'mid-model': ['EXTRACT', 1],
  'after-model': ['EXTRACT', 1],
  'after-progress': ['SAVE_PROGRESS', 1],
};

describe('what the drain did when the worker was asked to stop', () => {
  it.each(BEFORE_THE_GATE)(
    'hardened %s: the entrypoint stopped at its next task boundary (not at the interrupt, where LangGraph would), the task in flight kept',
    (point) => {
      const id = `langgraph-functional/hardened/-/${point}/term`;
      const [step, results] = IN_FLIGHT[point]!;
      expect(resultsAtCrash(id, step), `${id} ${step}`).toBe(results);
      expect(resultsAtCrash(id, 'DRAFT'), id).toBe(0);
      expect(resultsAtCrash(id, ENTRYPOINT_NAME), `${id}: no interrupt yet`).toBe(0);
      expect(spec.get(id).stopping).toMatchObject({ left: 'exited', exitCode: 0 });
    },
  );
});
