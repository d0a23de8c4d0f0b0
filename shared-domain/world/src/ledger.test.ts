import { describe, expect, it } from 'vitest';
import { Ledger, type LedgerEntry } from './ledger.ts';

const call = (runId: string | null, kind: LedgerEntry['kind']): Omit<LedgerEntry, 'seq'> => ({
  at: 0,
  runId,
  step: null,
  attempt: null,
  worker: null,
  idempotencyKey: null,
  kind,
  method: 'GET',
  path: '/',
  opKey: `${kind}`,
  subject: kind,
  status: 200,
  outcome: 'ok',
  promptTokens: 0,
  completionTokens: 0,
  costUsd: 0,
  durationMs: 0,
});

describe('the ledger', () => {
  it('gives a run’s entries, of a kind or all, in the order they came', () => {
    const ledger = new Ledger();
    for (const [run, kind] of [
      ['a', 'web'],
      ['b', 'model'],
      [null, 'web'],
      ['a', 'model'],
      ['a', 'web'],
    ] as const)
      ledger.record(call(run, kind));
    expect(ledger.entries({ runId: 'a' }).map((e) => e.seq)).toEqual([1, 4, 5]);
    expect(ledger.entries({ runId: 'a', kind: 'web' }).map((e) => e.seq)).toEqual([1, 5]);
    expect(ledger.entries({ kind: 'web' }).map((e) => e.seq)).toEqual([1, 3, 5]);
    expect(ledger.entries().map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(ledger.entries({ runId: 'c' })).toEqual([]);
  });

  it('forgets every run on a reset, and numbers on from where it was', () => {
    const ledger = new Ledger();
    ledger.record(call('a', 'web'));
    ledger.reset();
    expect(ledger.entries({ runId: 'a' })).toEqual([]);
    expect(ledger.record(call('a', 'mail')).seq).toBe(2);
    expect(ledger.entries({ runId: 'a' }).map((e) => e.kind)).toEqual(['mail']);
  });
});
