import { reviewDigest } from '@vendor-review/pipeline';
import type { RunHandle } from '@vendor-review/conformance';
import { describe, expect, it } from 'vitest';
import type { TrackedRun } from './campaign-state.ts';
import { evidence, mail, reviewState } from './evidence-fixtures.ts';
import type { StrikeCounts } from './injector.ts';
import type { JournalEntry } from './journal.ts';
import { baselinesOf, judge, strikesDue, verdictsOf, waitedMs } from './judge.ts';
import type { RunEvidence } from './run-evidence.ts';
import { STRIKE_KINDS, type Strike } from './schedule.ts';

/** A completed review with this draft, or (null) a run still going. */
const evidenceOf = (runId: string, draft: string | null): RunEvidence =>
  draft === null
    ? evidence({ mails: [], final: { status: 'running', state: null } })
    : evidence({ mails: [mail(`m-${runId}`, runId)], final: { status: 'completed', state: reviewState(draft) } });

function tracked(runId: string, o: Partial<TrackedRun> & { vendor?: string } = {}): TrackedRun {
  const { vendor = 'acme-analytics', ...rest } = o;
  return {
    index: 0,
    label: '000',
    plan: { index: 0, vendor, crash: null, stopMs: null, faults: [], holdApproval: false },
    handle: { runId } as RunHandle,
    ended: true,
    pool: 'langgraph/naive',
    runtime: 'langgraph',
    variant: 'naive',
    baseline: false,
    startedAt: 1_000,
    endedAt: 5_000,
    status: 'completed',
    approvals: [],
    gateSince: null,
    ...rest,
  };
}

const counts = (o: Partial<StrikeCounts> = {}): StrikeCounts => ({
  ...(Object.fromEntries(STRIKE_KINDS.map((k) => [k, 0])) as StrikeCounts),
  ...o,
});

const entry = (o: Partial<JournalEntry> & Pick<JournalEntry, 'kind' | 'at'>): JournalEntry => ({ detail: '', ...o });

describe('the verdicts, from what the campaign left', () => {
  const base = tracked('b0', { baseline: true, label: 'b0' });
  const otherVendor = tracked('b1', { baseline: true, label: 'b1', vendor: 'globex' });
  const same = tracked('r0');
  const differs = tracked('r1', { vendor: 'globex' });
  const stuck = tracked('r2', { ended: false, endedAt: null });
  const runs = [base, otherVendor, same, differs, stuck];
  const ev = new Map([
    ['b0', evidenceOf('b0', 'the review')],
    ['b1', evidenceOf('b1', 'the globex review')],
    ['r0', evidenceOf('r0', 'the review')],
    ['r1', evidenceOf('r1', 'not the globex review')],
    ['r2', evidenceOf('r2', null)],
  ]);

  it('a baseline per pool and vendor, its digest only when it completed', () => {
    const b = baselinesOf([...runs, tracked('b2', { baseline: true, pool: 'langgraph/hardened' })], ev);
    expect([...b.values()].map((x) => [x.pool, x.vendor, x.runId, x.digest])).toEqual([
      ['langgraph/naive', 'acme-analytics', 'b0', reviewDigest(reviewState('the review'))],
      ['langgraph/naive', 'globex', 'b1', reviewDigest(reviewState('the globex review'))],
      ['langgraph/hardened', 'acme-analytics', 'b2', null],
    ]);
  });

  it('each review is held against the baseline of its own vendor; baselines get no verdict', () => {
    const v = verdictsOf(runs, ev, baselinesOf(runs, ev));
    expect([...v.keys()]).toEqual(['r0', 'r1', 'r2']);
    expect(v.get('r0')!.violations).toEqual([]);
    expect(v.get('r1')!.violations.map((x) => x.kind)).toEqual(['review-differs']);
    expect(v.get('r2')!.end).toBe('stuck');
  });

  it('the wait at the gate is the time from the gate to the first approval, never negative', () => {
    expect(waitedMs({ gateSince: null, approvals: [{ at: 9_000, whileDown: false }] })).toBe(0);
    expect(waitedMs({ gateSince: 2_000, approvals: [] })).toBe(0);
    expect(waitedMs({ gateSince: 2_000, approvals: [{ at: 3_500, whileDown: true }] })).toBe(1_500);
    expect(waitedMs({ gateSince: 4_000, approvals: [{ at: 3_500, whileDown: true }] })).toBe(0);
  });

  it('the strikes due before the strikes ended, each marked whether the journal saw it fire', () => {
    const schedule: Strike[] = [
      { seq: 1, kind: 'kill', at: 100, pick: 0 },
      { seq: 2, kind: 'pause', at: 200, pick: 0, pauseMs: 4_000 },
      { seq: 3, kind: 'kill', at: 900, pick: 0 },
    ];
    const journal = [entry({ kind: 'strike', at: 10, strike: 1 }), entry({ kind: 'kill', at: 10, strike: 2 })];
    expect(strikesDue(schedule, 500, journal).map((s) => [s.seq, s.fired])).toEqual([
      [1, true],
      [2, false],
    ]);
  });

  it("a pool's row: its strikes, plus the crash points and pauses its armed workers reached once the reviews began", () => {
    const journal = [
      entry({ kind: 'crash-point', at: 50, pool: 'langgraph/naive' }), // during the baselines
      entry({ kind: 'crash-point', at: 150, pool: 'langgraph/naive' }),
      entry({ kind: 'crash-point', at: 160, pool: 'langgraph/hardened' }),
      entry({ kind: 'pause', at: 170, pool: 'langgraph/naive' }),
      entry({ kind: 'pause', at: 180, pool: 'langgraph/naive', strike: 4 }), // counted with the strikes
    ];
    const j = judge({
      runs,
      evidence: ev,
      pools: [
        {
          id: 'langgraph/naive',
          runtime: 'langgraph',
          variant: 'naive',
          title: 'LangGraph',
          strikes: counts({ kill: 2, pause: 1, partition: 3 }),
        },
      ],
      journal,
      schedule: [],
      strikesFrom: 100,
      injectedFor: 0,
    });
    expect(j.rows).toHaveLength(1);
    expect(j.rows[0]).toMatchObject({ pool: 'langgraph/naive', title: 'LangGraph', runs: 3, completed: 2, stuck: 1 });
    expect(j.rows[0]!.faults).toMatchObject({ kill: 2, 'crash-point': 1, pause: 2, partition: 3 });
    expect(j.baselines).toEqual([
      {
        pool: 'langgraph/naive',
        vendor: 'acme-analytics',
        runId: 'b0',
        digest: reviewDigest(reviewState('the review')),
      },
      {
        pool: 'langgraph/naive',
        vendor: 'globex',
        runId: 'b1',
        digest: reviewDigest(reviewState('the globex review')),
      },
    ]);
  });
});
