import { describe, expect, it } from 'vitest';
import { checkpointChain as chain, entries, PIPELINE } from '../fixtures.ts';
import type { DurableRecord } from '../adapter.ts';
import { judgeTwoWriters } from './two-writers.ts';

/** What happens after the resume point: EXTRACT on, in the fixture pipeline. */
const AFTER_RESUME = PIPELINE.filter((op) => op.kind !== 'web');

describe('two writers, judged from the ledger and the durable record', () => {
  it('both resumers ran every operation after the resume point and the chain forks: forked, with what doubled', () => {
    const ledger = entries([
      ...PIPELINE.filter((op) => op.kind === 'web').map((op) => ({ ...op, worker: 'Z' })),
      ...AFTER_RESUME.map((op) => ({ ...op, worker: 'A' })),
      ...AFTER_RESUME.map((op) => ({ ...op, worker: 'B' })),
    ]);
    const durable = chain([
      ['c0', null, 'Z'],
      ['c1', 'c0', 'Z'],
      ['a2', 'c1', 'A'],
      ['b2', 'c1', 'B'],
    ]);
    const { verdict, figures } = judgeTwoWriters({ ledger, durable, first: 'Z', resumers: ['A', 'B'], refusals: 0 });
    expect(verdict).toBe('forked');
    expect(figures).toMatchObject({
      writers: 'Z, A, B',
      'writes by A, B': '1, 1',
      forks: 1,
      'operations run by both': AFTER_RESUME.length,
      'paid model calls repeated': 3,
      'extra cost (USD)': 0.0064,
      'mails delivered': 2,
      'notes stored twice': 2,
    });
  });

  it('one resumer did everything, the other was refused: one writer, nothing doubled', () => {
    const ledger = entries(AFTER_RESUME.map((op) => ({ ...op, worker: 'A' })));
    const durable = chain([
      ['c0', null, 'Z'],
      ['a1', 'c0', 'A'],
      ['a2', 'a1', 'A'],
    ]);
    const { verdict, figures } = judgeTwoWriters({ ledger, durable, first: 'Z', resumers: ['A', 'B'], refusals: 1 });
    expect(verdict).toBe('one-writer');
    expect(figures).toMatchObject({
      writers: 'Z, A',
      'writes by A, B': '2, 0',
      forks: 0,
      'operations run by both': 0,
      'mails delivered': 1,
      refusals: 1,
    });
  });

  it('a history where each task went to one worker or the other is one writer; the harness’s own client is no writer', () => {
    const ops = AFTER_RESUME.map((op, i) => ({ ...op, worker: i % 2 ? 'B' : 'A' }));
    const history: DurableRecord = {
      runtime: 'journal',
      kind: 'history',
      marks: ['4581', 'Z', 'A', 'B', 'A'].map((writer, i) => ({
        id: String(i + 1),
        kind: 'event',
        at: null,
        step: null,
        short: '',
        long: '',
        writer,
        order: i + 1,
      })),
    };
    const { verdict, figures } = judgeTwoWriters({
      ledger: entries(ops),
      durable: history,
      first: 'Z',
      resumers: ['A', 'B'],
      refusals: 0,
    });
    expect(verdict).toBe('one-writer');
    expect(figures).toMatchObject({ writers: 'Z, A, B', forks: 0, 'operations run by both': 0 });
  });

  it('a history cannot fork: two resumers that both ran one operation is still two writers', () => {
    const draft = AFTER_RESUME.find((op) => op.step === 'DRAFT')!;
    const ledger = entries([
      { ...draft, worker: 'A' },
      { ...draft, worker: 'B' },
    ]);
    const history: DurableRecord = { runtime: 'journal', kind: 'history', marks: [] };
    const { verdict, figures } = judgeTwoWriters({
      ledger,
      durable: history,
      first: 'Z',
      resumers: ['A', 'B'],
      refusals: 0,
    });
    expect(verdict).toBe('forked');
    expect(figures).toMatchObject({ forks: 0, 'operations run by both': 1, 'paid model calls repeated': 1 });
  });

  it('a call the world refused on purpose (an injected fault) is no operation run', () => {
    const mail = AFTER_RESUME.at(-1)!;
    const ledger = entries([
      { ...mail, worker: 'A' },
      { ...mail, worker: 'B', outcome: 'fault', fault: '503' },
    ]);
    expect(judgeTwoWriters({ ledger, durable: null, first: 'Z', resumers: ['A', 'B'], refusals: 0 }).verdict).toBe(
      'one-writer',
    );
  });

  it('one writer names what kept the other out only where the runtime’s records show it', () => {
    const ledger = entries(AFTER_RESUME.map((op) => ({ ...op, worker: 'A' })));
    const one = (o: Partial<Parameters<typeof judgeTwoWriters>[0]>) =>
      judgeTwoWriters({ ledger, durable: null, first: 'Z', resumers: ['A', 'B'], refusals: 0, ...o }).figures[
        'kept to one writer by'
      ];
    expect(one({ refusals: 1, inFlight: [{ step: null, attempt: 3, worker: 'A', fence: 'lease' }] })).toBe(
      'our lease’s fencing token: held by A, 1 refused',
    );
    expect(one({ inFlight: [{ step: 'EXTRACT', attempt: 1, worker: 'A', fence: 'runtime' }] })).toBe(
      'the runtime: its records handed the run’s tasks to A, one task to one worker',
    );
    // A record that names no owner (a journal whose steps name no worker) shows no mechanism, whatever the runtime documents.
    expect(one({ inFlight: [{ step: null, attempt: 2, worker: null, fence: 'runtime' }] })).toBe(
      'not shown by the records: they name no worker holding the run',
    );
    expect(one({})).toBe('not shown by the records: they name nothing in flight');
  });
});
