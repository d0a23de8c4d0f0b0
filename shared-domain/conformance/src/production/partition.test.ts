import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from '@vendor-review/world';
import type { DurableRecord } from '../adapter.ts';
import { entries, T0 } from '../fixtures.ts';
import { judgePartition } from './partition.ts';

const model = { kind: 'model', step: 'EXTRACT', opKey: 'model:EXTRACT:aaa' } as const;
const note = { kind: 'tracker', step: 'SAVE_PROGRESS', opKey: 'tracker:r1' } as const;
const mail = { kind: 'mail', step: 'DELIVER', opKey: 'mail:rev-acme-1' } as const;

/** The ledger: entry i happens at start + i·100 ms (start: T0 unless given). The cut lasts from T0 + 50 to T0 + 1050. */
const CUT = { cutAt: T0 + 50, healedAt: T0 + 1050 };
const empty: DurableRecord = { runtime: 'checkpointer', kind: 'checkpoints', marks: [] };

function judge(ledger: LedgerEntry[], o: Partial<Parameters<typeof judgePartition>[0]> = {}) {
  return judgePartition({
    ledger,
    atCut: empty,
    after: empty,
    ...CUT,
    leftItself: null,
    inFlightAtCut: [],
    inFlightLater: [],
    mailsReceived: 1,
    completed: true,
    status: 'completed',
    ...o,
  });
}

describe('judgePartition', () => {
  it('the cut-off worker sent the mail, the takeover sent it again, both accepted: duplicated', () => {
    const ledger = entries(
      [
        { ...mail, worker: 'A' },
        { ...mail, worker: 'B' },
      ],
      'rev-acme-1',
      T0 + 100,
    );
    const { verdict, figures } = judge(ledger, { mailsReceived: 2 });
    expect(verdict).toBe('duplicated-effects');
    expect(figures['cut-off worker’s calls while cut off']).toBe('1 mail');
    expect(figures.takeover).toBe('B after 0.2 s');
  });

  it('the second send carried the key and was collapsed: one copy, by the key', () => {
    const ledger = entries(
      [
        { ...mail, worker: 'A' },
        { ...mail, worker: 'B', outcome: 'deduplicated' },
      ],
      'rev-acme-1',
      T0 + 100,
    );
    expect(judge(ledger).verdict).toBe('collapsed-by-key');
  });

  it('the cut-off worker left while cut off before any effect: left; after healing it would be one writer', () => {
    const ledger = entries([
      { ...model, worker: 'A' },
      { ...model, worker: 'B' },
      { ...note, worker: 'B' },
    ]);
    const early = judge(ledger, { leftItself: { at: T0 + 500, exit: 'exit code 5' } });
    expect(early.verdict).toBe('left-while-cut-off');
    expect(early.figures['paid calls repeated']).toBe(1);
    const late = judge(ledger, { leftItself: { at: T0 + 2000, exit: 'exit code 1' } });
    expect(late.verdict).toBe('one-writer');
  });

  it('a checkpoint the cut-off worker wrote after healing was accepted: a late write', () => {
    const after: DurableRecord = {
      ...empty,
      marks: [
        {
          id: 'c9',
          kind: 'checkpoint',
          at: T0 + 1200,
          step: 'EXTRACT',
          short: 'c9',
          long: 'c9',
          order: 9,
          writer: 'A',
        },
      ],
    };
    const ledger = entries([
      { ...model, worker: 'A' },
      { ...model, worker: 'B' },
    ]);
    expect(judge(ledger, { after }).verdict).toBe('late-write-accepted');
  });

  it('nobody else acted for the run while it was cut off: not replaced', () => {
    const ledger = entries([{ ...model, worker: 'A' }], 'rev-acme-1', T0 + 1100);
    expect(judge(ledger).verdict).toBe('not-replaced');
  });

  it('a run that did not complete is lost, whatever else happened', () => {
    expect(judge(entries([{ ...mail, worker: 'A' }]), { completed: false, status: 'running' }).verdict).toBe(
      'lost-the-run',
    );
  });
});
