import {
  baselineObservation,
  crashedObservation,
  FAKE_RUNTIMES,
  withAsks,
  type FakeRuntime,
} from '@vendor-review/conformance/fixtures';
import type { ApproverDeviation, CellObservation } from '@vendor-review/conformance';
import { describe, expect, it } from 'vitest';
import { approverInboxSection, approverScoreLine, inboxLines } from './approver-inbox.ts';
import { toText } from './render-text.ts';
import { buildRows } from './results.ts';

const label = (r: string) => FAKE_RUNTIMES[r as FakeRuntime].label;
const rerunsTheNode: ApproverDeviation = { variant: 'naive', inbox: 2, why: 'the node runs again on resume' };

/** A runtime's baseline and its kill while waiting, the approver asked by each worker in `asks`. */
function pair(runtime: FakeRuntime, asks: { base: string[]; waiting: string[] }, deviations?: ApproverDeviation[]) {
  const dev = (o: CellObservation): CellObservation =>
    deviations ? { ...o, scenario: { ...o.scenario, approverDeviations: deviations } } : o;
  const base = dev(baselineObservation(runtime));
  const waiting = dev(crashedObservation({ runtime, crashPoint: 'awaiting-approval', crashAfter: 11, resumeFrom: 11 }));
  return {
    plain: [base, waiting],
    asked: [
      withAsks(
        base,
        asks.base.map((worker) => ({ worker })),
      ),
      withAsks(
        waiting,
        asks.waiting.map((worker) => ({ worker })),
      ),
    ],
  };
}

describe("the approver's inbox rows", () => {
  const replays = pair('checkpointer', { base: ['A', 'A'], waiting: ['A', 'B'] }, [rerunsTheNode]);
  const records = pair('journal', { base: ['A'], waiting: ['A'] });
  const rows = buildRows([...replays.asked, ...records.asked], label);

  it('each row carries what the approver received, beside what its runtime must show and why', () => {
    expect(rows.map((r) => [r.cellId, r.approver])).toEqual([
      ['checkpointer/naive/async/baseline', { asked: 2, inbox: 2, expected: 2, why: rerunsTheNode.why }],
      ['checkpointer/naive/async/awaiting-approval', { asked: 2, inbox: 2, expected: 2, why: rerunsTheNode.why }],
      ['journal/naive/-/baseline', { asked: 1, inbox: 1, expected: 1, why: null }],
      ['journal/naive/-/awaiting-approval', { asked: 1, inbox: 1, expected: 1, why: null }],
    ]);
  });

  it('no other figure of a row moves because the approver was told', () => {
    const without = buildRows([...replays.plain, ...records.plain], label);
    const strip = (r: (typeof rows)[number]) => ({ ...r, approver: null });
    expect(rows.map(strip)).toEqual(without.map(strip));
  });

  it('one line per runtime and variant, uncrashed beside killed while waiting, in the scorecard and the section', () => {
    const lines = inboxLines(rows);
    expect(lines.map((l) => [l.label, l.noCrash?.approver.inbox, l.waiting?.approver.inbox])).toEqual([
      [`${label('checkpointer')} naive/async`, 2, 2],
      [`${label('journal')} naive`, 1, 1],
    ]);
    const card = approverScoreLine(rows, [
      { runtime: 'checkpointer', variant: 'naive' },
      { runtime: 'journal', variant: 'naive' },
      { runtime: 'journal', variant: 'hardened' },
    ]);
    expect(card?.cells.map((c) => c && [c.word, c.severity])).toEqual([['2×', 'effect'], ['once', 'nothing'], null]);
    const text = toText({ title: 't', meta: [], sections: [approverInboxSection(rows)!] }, { color: false });
    expect(text).toContain(rerunsTheNode.why);
    expect(text).toContain('a recorded step before the wait');
  });
});
