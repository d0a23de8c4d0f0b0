import { describe, expect, it } from 'vitest';
import { stepOf, toDurableRecord } from './durable-record.ts';

describe("DBOS's step journal as a durable record", () => {
  it('names each recorded operation by its step, and DBOS’s own operations as bookkeeping', () => {
    const record = toDurableRecord([
      { functionID: 2, name: 'FETCH:soc2:1', error: null, completedAtEpochMs: 30 },
      { functionID: 0, name: 'DBOS.setEvent', error: null, completedAtEpochMs: 10 },
      { functionID: 1, name: 'VALIDATE', error: null, completedAtEpochMs: 20 },
      { functionID: 3, name: 'EXTRACT:soc2', error: { message: 'boom' } },
    ]);
    expect(record.kind).toBe('history');
    expect(record.marks.map((m) => [m.id, m.step, m.short, m.bookkeeping ?? false])).toEqual([
      ['0', null, '#0 setEvent', true],
      ['1', 'VALIDATE', '#1 VALIDATE', false],
      ['2', 'FETCH', '#2 FETCH', false],
      ['3', 'EXTRACT', '#3 EXTRACT failed', false],
    ]);
    expect(record.marks[3]!.at).toBeNull();
    expect(record.claims).toEqual([]);
  });

  it('keeps the workflow’s claim count, which outlives the run, as its claim', () => {
    expect(toDurableRecord([], 2).claims).toEqual([{ step: null, attempt: 2, worker: null, fence: 'runtime' }]);
  });

  it('reads the step from the head of our step names', () => {
    expect([stepOf('SELECT_REQUIREMENT#2'), stepOf('DELIVER:outbox'), stepOf('DBOS.recv')]).toEqual([
      'SELECT_REQUIREMENT',
      'DELIVER',
      null,
    ]);
  });
});
