import { describe, expect, it } from 'vitest';
import { entries, PIPELINE } from '../fixtures.ts';
import { judgeDeploy } from './rolling-deploy.ts';

const model = PIPELINE.find((op) => op.kind === 'model')!;
const mail = PIPELINE.at(-1)!;
const once = (runId: string) =>
  entries(
    PIPELINE.map((op) => ({ ...op, worker: 'A' })),
    runId,
  );

describe('what a rolling deploy cost, from the ledger', () => {
  it('every step once in every run: seamless', () => {
    const ledger = [...once('r1'), ...once('r2')];
    expect(judgeDeploy({ ledger, completed: 2, runs: 2 })).toEqual({
      verdict: 'seamless',
      paidRepeated: 0,
      effectsTwice: 0,
    });
  });

  it('a model call cut off by the stop and made again by the new worker is a paid call repeated, per run', () => {
    const ledger = [...once('r1'), ...entries([{ ...model, worker: 'B' }], 'r1'), ...once('r2')];
    expect(judgeDeploy({ ledger, completed: 2, runs: 2 })).toMatchObject({
      verdict: 'repeated-paid-calls',
      paidRepeated: 1,
    });
  });

  it('the same model call in two runs is no repeat; a mail accepted twice in one run is an effect twice', () => {
    const ledger = [...once('r1'), ...once('r2'), ...entries([{ ...mail, worker: 'B' }], 'r2')];
    expect(judgeDeploy({ ledger, completed: 2, runs: 2 })).toMatchObject({
      verdict: 'duplicated-effects',
      paidRepeated: 0,
      effectsTwice: 1,
    });
  });

  it('a review that did not complete outweighs everything else', () => {
    expect(judgeDeploy({ ledger: once('r1'), completed: 1, runs: 2 }).verdict).toBe('lost-the-run');
  });
});
