import { describe, expect, it } from 'vitest';
import type { DurableMark, DurableRecord, InFlightTask } from '../adapter.ts';
import { entries, PIPELINE, T0 } from '../fixtures.ts';
import { judgeZombie, lateWrites, leaseTokensIn, passedOn, seen } from './zombie.ts';

const task = (t: Partial<InFlightTask> & Pick<InFlightTask, 'attempt'>): InFlightTask => ({
  step: null,
  worker: null,
  fence: 'runtime',
  ...t,
});
/** The runtime's records, read at the freeze and while the zombie slept, as the hazard reads them. */
const records = (atFreeze: InFlightTask[], later: InFlightTask[]) => ({
  inFlightAtFreeze: atFreeze,
  inFlightLater: later.map((t) => ({ task: t, asleep: true })),
});
/** Our lease passed from the zombie (token 1) to the takeover (token 2) while it slept. */
const leasePassed = records(
  [task({ attempt: 1, worker: 'A', fence: 'lease' })],
  [task({ attempt: 2, worker: 'B', fence: 'lease' })],
);
/** The journal's pending step: attempt 1 handed to the zombie, then attempts 2 and 3 scheduled while it slept. */
const attemptsPassed = records(
  [task({ step: 'EXTRACT', attempt: 1, worker: 'A' })],
  [task({ step: 'EXTRACT', attempt: 2 }), task({ step: 'EXTRACT', attempt: 2, worker: 'A' })],
);

const mark = (m: Partial<DurableMark> & Pick<DurableMark, 'id' | 'kind'>): DurableMark => ({
  at: null,
  step: null,
  short: m.id,
  long: m.id,
  order: Number(m.id.replace(/\D/g, '')) || 0,
  ...m,
});
const record = (kind: DurableRecord['kind'], marks: DurableMark[]): DurableRecord => ({
  runtime: kind === 'history' ? 'journal' : 'checkpointer',
  kind,
  marks,
});

describe('late writes from a woken worker', () => {
  it('every checkpoint the zombie wrote after waking is one: it goes on from the state it froze with', () => {
    const before = record('checkpoints', [mark({ id: 'c1', kind: 'checkpoint', writer: 'A' })]);
    const after = record('checkpoints', [
      ...before.marks,
      mark({ id: 'c2', kind: 'checkpoint', writer: 'B', parentId: 'c1' }),
      mark({ id: 'c3', kind: 'checkpoint', writer: 'A', parentId: 'c1' }),
    ]);
    expect(lateWrites({ before, after, zombie: 'A' }).map((m) => m.id)).toEqual(['c3']);
  });

  it('a close by the zombie of an attempt handed to another worker is one; a task handed to it after waking is not', () => {
    const after = record('history', [
      mark({ id: 'e10', kind: 'event', writer: 'B', bookkeeping: true }),
      mark({ id: 'e11', kind: 'event', writer: 'A', parentId: 'e10' }),
      mark({ id: 'e20', kind: 'event', writer: 'A', bookkeeping: true }),
      mark({ id: 'e21', kind: 'event', writer: 'A', parentId: 'e20' }),
    ]);
    expect(lateWrites({ before: record('history', []), after, zombie: 'A' }).map((m) => m.id)).toEqual(['e11']);
  });
});

describe('the zombie, judged from the ledger and the durable records', () => {
  const model = PIPELINE.find((op) => op.kind === 'model')!;
  const afterModel = PIPELINE.slice(PIPELINE.indexOf(model) + 1);
  const base = {
    zombie: 'A',
    takeover: 'B',
    frozenOpKey: model.opKey,
    frozenAt: T0,
    handedToZombie: [],
    pauseMs: 12_000,
    zombieExit: 'code 5',
  };

  it('a naive zombie goes on after waking: its writes accepted, its effects repeated', () => {
    const ledger = entries([
      { ...model, worker: 'A' },
      { ...model, worker: 'B' },
      ...afterModel.map((op) => ({ ...op, worker: 'B' })),
      ...afterModel.map((op) => ({ ...op, worker: 'A' })),
    ]);
    const before = record('checkpoints', [mark({ id: 'c1', kind: 'checkpoint', writer: 'A' })]);
    const after = record('checkpoints', [
      ...before.marks,
      mark({ id: 'c2', kind: 'checkpoint', writer: 'B', parentId: 'c1' }),
      mark({ id: 'c3', kind: 'checkpoint', writer: 'A', parentId: 'c1' }),
      mark({ id: 'c4', kind: 'checkpoint', writer: 'A', parentId: 'c3' }),
    ]);
    const { verdict, figures } = judgeZombie({ ...base, ledger, before, after, seqAtWake: 2, zombieExit: 'code 0' });
    expect(verdict).toBe('late-write-accepted');
    expect(figures).toMatchObject({
      'frozen for': '12 s',
      takeover: 'B after 0.1 s',
      'attempts handed to the frozen worker': 0,
      'woken worker’s results': 'accepted (2 writes)',
      'late writes accepted': 2,
      'zombie calls after waking': afterModel.length,
      'of them repeating the takeover': afterModel.length,
      'effects delivered twice': 3,
      'frozen call paid': '2×',
    });
  });

  it('nothing accepted and nothing sent after waking, and our lease passed on while it slept: fenced by the lease', () => {
    const ledger = entries([
      { ...model, worker: 'A' },
      ...[model, ...afterModel].map((op) => ({ ...op, worker: 'B' })),
    ]);
    const before = record('checkpoints', [mark({ id: 'c1', kind: 'checkpoint', writer: 'A' })]);
    const after = record('checkpoints', [...before.marks, mark({ id: 'c2', kind: 'checkpoint', writer: 'B' })]);
    const { verdict, figures } = judgeZombie({ ...base, ledger, before, after, seqAtWake: 2, ...leasePassed });
    expect(verdict).toBe('fenced-by-lease');
    expect(figures).toMatchObject({
      'stopped by': 'our lease’s fencing token (token 1 → 2 while it slept)',
      'late writes accepted': 0,
      'zombie calls after waking': 0,
      'effects delivered twice': 0,
    });
  });

  it('the same outcome with no record passing its task on is no fence: the woken worker died, or nothing stopped it', () => {
    // A checkpointer with no lease, whose pending writes name no writer.
    const ledger = entries([
      { ...model, worker: 'A' },
      ...[model, ...afterModel].map((op) => ({ ...op, worker: 'B' })),
    ]);
    const o = { ...base, ledger, before: null, after: null, seqAtWake: 2, ...records([], []) };
    const died = judgeZombie({ ...o, zombieDied: true, zombieExit: 'code 1' });
    expect(died.verdict).toBe('died-on-waking');
    expect(died.figures['stopped by']).toBe('nobody: no record passed its task on');
    expect(judgeZombie({ ...o, zombieExit: 'code 0' }).verdict).toBe('not-fenced');
  });

  it('nobody stopped it and what it sent after waking repeated the takeover’s effects: repeated-the-takeover', () => {
    const ledger = entries([
      { ...model, worker: 'A' },
      { ...model, worker: 'B' },
      ...afterModel.map((op) => ({ ...op, worker: 'B' })),
      ...afterModel.map((op) => ({ ...op, worker: 'A' })),
    ]);
    const { verdict, figures } = judgeZombie({ ...base, ledger, before: null, after: null, seqAtWake: 2 });
    expect(verdict).toBe('repeated-the-takeover');
    expect(figures).toMatchObject({
      'stopped by': 'nobody: no record passed its task on',
      'effects delivered twice': 3,
    });
  });

  it('refused, but what it sent the world after waking repeated an effect of the takeover', () => {
    const mail = PIPELINE.at(-1)!;
    const ledger = entries([
      { ...model, worker: 'A' },
      { ...model, worker: 'B' },
      { ...mail, worker: 'B' },
      { ...mail, worker: 'A' },
    ]);
    const { verdict, figures } = judgeZombie({
      ...base,
      ledger,
      before: null,
      after: null,
      seqAtWake: 3,
      ...leasePassed,
    });
    expect(verdict).toBe('refused-but-repeated');
    expect(figures).toMatchObject({ 'of them repeating the takeover': 1, 'effects delivered twice': 1 });
  });

  it('the runtime handed the frozen step back to the frozen worker: no takeover, fenced by the runtime, and it says so', () => {
    const ledger = entries([
      { ...model, worker: 'A' },
      { ...model, worker: 'A', attempt: 2 },
    ]);
    const { verdict, figures } = judgeZombie({
      ...base,
      ledger,
      before: null,
      after: null,
      seqAtWake: 1,
      handedToZombie: ['EXTRACT#2'],
      ...attemptsPassed,
    });
    expect(verdict).toBe('fenced-by-runtime');
    expect(figures).toMatchObject({
      'stopped by': 'the runtime (EXTRACT attempt 1 → 2 while it slept)',
      takeover: 'none',
      'attempts handed to the frozen worker': 1,
      'woken worker’s results': 'none accepted (code 5)',
      'zombie calls after waking': 1,
      'of them repeating the takeover': 0,
      'frozen call paid': '2×',
    });
  });

  it('nobody took over and no record passed its task on: not replaced, nothing to fence', () => {
    const ledger = entries([{ ...model, worker: 'A' }, ...afterModel.map((op) => ({ ...op, worker: 'A' }))]);
    expect(judgeZombie({ ...base, ledger, before: null, after: null, seqAtWake: 1 }).verdict).toBe('not-replaced');
  });
});

describe('which task the records passed on', () => {
  it('a higher attempt of a task the zombie held, or of one the records name no holder of', () => {
    expect(
      passedOn({ zombie: 'A', atFreeze: leasePassed.inFlightAtFreeze, later: leasePassed.inFlightLater }),
    ).toMatchObject({
      from: { attempt: 1, worker: 'A' },
      to: { attempt: 2, worker: 'B', fence: 'lease' },
      asleep: true,
    });
    const claim = passedOn({
      zombie: 'A',
      atFreeze: [task({ attempt: 1 })],
      later: [{ task: task({ attempt: 2 }), asleep: false }],
    });
    expect(claim).toMatchObject({ from: { attempt: 1 }, to: { attempt: 2, fence: 'runtime' }, asleep: false });
  });

  it('a pass seen while it slept wins over one seen after it woke, whatever order the looks came in', () => {
    const atFreeze = [task({ attempt: 1, worker: 'A', fence: 'lease' })];
    const later = [
      { task: task({ attempt: 2, worker: 'B', fence: 'lease' }), asleep: false },
      { task: task({ attempt: 2, worker: 'B', fence: 'lease' }), asleep: true },
    ];
    expect(passedOn({ zombie: 'A', atFreeze, later })).toMatchObject({ asleep: true });
  });

  it('our lease passed on is read from the checkpoints too: a takeover that claimed it, finished and let go between two looks', () => {
    // The looks at the in-flight records saw the zombie's live lease, then nothing (released at the end).
    const before = [
      mark({ id: 'c1', kind: 'checkpoint', writer: 'A', fencingToken: 1 }),
      mark({ id: 'c2', kind: 'checkpoint', writer: 'B', fencingToken: 2 }),
      mark({ id: 'c3', kind: 'pending-write' }),
    ];
    const tokens = leaseTokensIn(before);
    expect(tokens.map((t) => [t.attempt, t.worker, t.fence])).toEqual([
      [1, 'A', 'lease'],
      [2, 'B', 'lease'],
    ]);
    expect(passedOn({ zombie: 'A', atFreeze: leasePassed.inFlightAtFreeze, later: seen(tokens, true) })).toMatchObject({
      from: { attempt: 1 },
      to: { attempt: 2, worker: 'B', fence: 'lease' },
      asleep: true,
    });
    // A look at the lease that came after it had lapsed showed nothing: the zombie's own checkpoints say what it held.
    const held = leaseTokensIn(before.filter((m) => m.writer === 'A'));
    expect(passedOn({ zombie: 'A', atFreeze: held, later: seen(tokens, true) })).toMatchObject({
      from: { attempt: 1 },
      to: { attempt: 2, worker: 'B' },
    });
    expect(passedOn({ zombie: 'A', atFreeze: [], later: seen(tokens, true) })).toBeNull();
    // Checkpoints with no token (no lease) pass nothing on.
    expect(leaseTokensIn([mark({ id: 'c1', kind: 'checkpoint', writer: 'B' })])).toEqual([]);
  });

  it('a hand-over is read from the record’s claims too: a takeover that claimed, finished and let go between two looks', () => {
    // The looks at the in-flight records saw the zombie's live lease only; the zombie's checkpoints are all the chain holds.
    const before = record('checkpoints', [mark({ id: 'c1', kind: 'checkpoint', writer: 'A', fencingToken: 1 })]);
    const held = [...leasePassed.inFlightAtFreeze, ...leaseTokensIn(before.marks)];
    expect(passedOn({ zombie: 'A', atFreeze: held, later: seen(held, true) })).toBeNull();
    // The lease row, released, still names the takeover's claim.
    const released = { ...before, claims: [task({ attempt: 2, worker: 'B', fence: 'lease' })] };
    expect(passedOn({ zombie: 'A', atFreeze: held, later: seen(released.claims, true) })).toMatchObject({
      from: { attempt: 1, worker: 'A' },
      to: { attempt: 2, worker: 'B', fence: 'lease' },
      asleep: true,
    });
    // A history's started event: the mail's step closed by the takeover's second attempt.
    const atFreeze = [task({ step: 'DELIVER', attempt: 1, worker: 'A' })];
    const closedBy = [
      task({ step: 'FETCH', attempt: 1, worker: 'A' }),
      task({ step: 'DELIVER', attempt: 2, worker: 'B' }),
    ];
    expect(passedOn({ zombie: 'A', atFreeze, later: seen(closedBy, false) })).toMatchObject({
      from: { step: 'DELIVER', attempt: 1 },
      to: { step: 'DELIVER', attempt: 2, worker: 'B', fence: 'runtime' },
      asleep: false,
    });
    // Claims that only repeat what the zombie held pass nothing on.
    expect(passedOn({ zombie: 'A', atFreeze, later: seen(atFreeze, true) })).toBeNull();
  });

  it('another worker’s task, another step, or the same attempt again is not the zombie’s passed on', () => {
    const later = (t: InFlightTask) => [{ task: t, asleep: true }];
    expect(
      passedOn({ zombie: 'A', atFreeze: [task({ attempt: 1, worker: 'B' })], later: later(task({ attempt: 2 })) }),
    ).toBeNull();
    expect(
      passedOn({
        zombie: 'A',
        atFreeze: [task({ step: 'EXTRACT', attempt: 1 })],
        later: later(task({ step: 'DRAFT', attempt: 2 })),
      }),
    ).toBeNull();
    expect(
      passedOn({ zombie: 'A', atFreeze: [task({ attempt: 1, worker: 'A' })], later: later(task({ attempt: 1 })) }),
    ).toBeNull();
  });
});

describe('the zombie in the mail’s send', () => {
  const mail = PIPELINE.at(-1)!;
  const base = {
    zombie: 'A',
    takeover: 'B',
    frozenOpKey: mail.opKey,
    frozenAt: T0,
    handedToZombie: [],
    pauseMs: 12_000,
    place: 'mail' as const,
    zombieExit: 'code 5',
    before: null,
    after: null,
  };
  const ledger = entries([
    { ...mail, worker: 'A' },
    { ...mail, worker: 'B' },
  ]);

  it('two copies in the customer’s mailbox are a duplicated effect, whoever sent the second', () => {
    const { verdict, figures } = judgeZombie({ ...base, ledger, seqAtWake: 2, mailsReceived: 2 });
    expect(verdict).toBe('duplicated-effects');
    expect(figures).toMatchObject({ 'mails the customer received': 2, takeover: 'B after 0.1 s' });
  });

  it('one copy (the resend collapsed by its key) and nothing accepted: fenced by whatever passed its task on', () => {
    expect(judgeZombie({ ...base, ledger, seqAtWake: 2, mailsReceived: 1, ...leasePassed }).verdict).toBe(
      'fenced-by-lease',
    );
    // With no record passing its task on, one copy is luck, not a fence.
    expect(judgeZombie({ ...base, ledger, seqAtWake: 2, mailsReceived: 1 }).verdict).toBe('not-fenced');
  });

  it('a takeover that came only after the zombie woke is said so', () => {
    const late = entries([
      { ...mail, worker: 'A' },
      { ...mail, worker: 'B' },
    ]).map((e) => (e.worker === 'B' ? { ...e, at: T0 + 20_000 } : e));
    expect(judgeZombie({ ...base, ledger: late, seqAtWake: 2, mailsReceived: 1 }).figures.takeover).toMatch(
      /^only after A woke/,
    );
  });
});
