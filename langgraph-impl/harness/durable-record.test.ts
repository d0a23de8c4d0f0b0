import { lastDurableBefore } from '@vendor-review/conformance';
import { describe, expect, it } from 'vitest';
import { toDurableRecord } from './durable-record.ts';

describe("LangGraph's tables as a durable record", () => {
  it('names the last checkpoint before the crash, with the pending writes of finished siblings', () => {
    const rec = toDurableRecord({
      checkpoints: [
        { checkpointId: 'c0', parentId: null, step: -1, source: 'input', node: null },
        {
          checkpointId: 'c1',
          parentId: 'c0',
          step: 0,
          source: 'loop',
          node: 'SELECT_PAGE',
          writer: 'A',
          fencingToken: 3,
        },
      ],
      pendingWrites: [
        { checkpointId: 'c1', taskId: 't1', channel: 'fetched', node: 'FETCH' },
        { checkpointId: 'c1', taskId: 't2', channel: 'fetched', node: 'FETCH' },
      ],
    });
    expect(rec.kind).toBe('checkpoints');
    expect(rec.marks.find((m) => m.id === 'c1')).toMatchObject({ writer: 'A', fencingToken: 3, parentId: 'c0' });
    const d = lastDurableBefore(rec, Date.now());
    expect(d.short).toBe('cp 0 SELECT_PAGE +2w');
    expect(d.long).toMatch(/2 pending write\(s\) from FETCH/);
  });

  it('leaves out a pending write whose checkpoint was never written: nothing to resume from', () => {
    const orphan = toDurableRecord({
      checkpoints: [],
      pendingWrites: [{ checkpointId: 'c0', taskId: 't1', channel: '__return__' }],
    });
    expect(orphan.marks).toEqual([]);
    expect(lastDurableBefore(orphan, Date.now()).short).toBe('nothing');
  });

  it('claims the lease row: the worker that claimed it last, by name, and its token; none without one', () => {
    const rows = { checkpoints: [], pendingWrites: [] };
    expect(toDurableRecord({ ...rows, lease: { owner: 'B/4242', fencingToken: 2 } }).claims).toEqual([
      { step: null, attempt: 2, worker: 'B', fence: 'lease' },
    ]);
    expect(toDurableRecord(rows).claims).toEqual([]);
  });

  it('says so when nothing was durable', () => {
    expect(lastDurableBefore(toDurableRecord({ checkpoints: [], pendingWrites: [] }), Date.now()).short).toBe(
      'nothing',
    );
  });
});
