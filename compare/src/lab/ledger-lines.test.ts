import { entries } from '@vendor-review/conformance/fixtures';
import type { LedgerEntry } from '@vendor-review/world';
import { describe, expect, it } from 'vitest';
import { ledgerLine } from './ledger-lines.ts';

/** One ledger entry of run r1, by worker A at EXTRACT unless said otherwise. */
const entry = (o: Partial<LedgerEntry> & Pick<LedgerEntry, 'kind'>): LedgerEntry => ({
  ...entries([{ kind: o.kind, step: 'EXTRACT', opKey: 'op', worker: 'A' }], 'r1')[0]!,
  ...o,
});

describe("the world's lines beside a lab worker's", () => {
  it('a model call: who asked, the tokens and the bill, and a call the worker left still billed', () => {
    const model = entry({ kind: 'model', promptTokens: 120, completionTokens: 30, costUsd: 0.0125 });
    expect(ledgerLine('r1', model)).toBe(
      '[world] run r1: billed a model call by worker A, EXTRACT attempt 1: 120 prompt + 30 completion tokens = $0.013',
    );
    expect(ledgerLine('r1', { ...model, outcome: 'aborted', worker: null, step: null, attempt: 0 })).toBe(
      '[world] run r1: billed a model call by worker ?, ?: 120 prompt + 30 completion tokens = $0.013 (aborted: the worker left before the answer; billed all the same)',
    );
  });

  it('a mail or a note: what the receiver did with it, a repeat it recognised by its key said so', () => {
    const mail = entry({ kind: 'mail', step: 'DELIVER', worker: 'B' });
    expect(ledgerLine('r1', mail)).toMatch(/^\[world\] run r1: .+ from worker B, DELIVER attempt 1: ok$/);
    expect(ledgerLine('r1', { ...mail, outcome: 'deduplicated' })).toMatch(/: recognised its key: nothing new$/);
    expect(ledgerLine('r1', entry({ kind: 'tracker' }))).toMatch(/^\[world\] run r1: tracker note from worker A/);
  });

  it('a page read is not printed', () => {
    expect(ledgerLine('r1', entry({ kind: 'web' }))).toBeNull();
  });
});
