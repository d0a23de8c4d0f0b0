import { type ReviewState, retryRuleFor, reviewDigest } from '@vendor-review/pipeline';
import { type DurableMark, type DurableRecord } from '@vendor-review/conformance';
import { checkpointChain } from '@vendor-review/conformance/fixtures';
import type { LedgerEntry } from '@vendor-review/world';
import { describe, expect, it } from 'vitest';
import {
  checkRun,
  clean,
  extraSpend,
  falseDeadLetter,
  lateCompletion,
  lateWrites,
  poolRow,
  type CheckedRun,
} from './checker.ts';
import { evidence, mail, note, reviewState } from './evidence-fixtures.ts';
import type { RunEvidence } from './run-evidence.ts';

let seq = 0;
function entry(o: Partial<LedgerEntry> & Pick<LedgerEntry, 'kind' | 'opKey'>): LedgerEntry {
  return {
    seq: ++seq,
    at: seq,
    runId: 'r1',
    step: null,
    attempt: 1,
    worker: 'A',
    idempotencyKey: null,
    method: 'POST',
    path: '/',
    subject: o.opKey,
    status: 200,
    outcome: 'ok',
    promptTokens: 0,
    completionTokens: 0,
    costUsd: 0,
    durationMs: 1,
    ...o,
  };
}

const DIGEST = reviewDigest(reviewState());

function run(o: Partial<RunEvidence> = {}, endedAt: number | null = 5_000): CheckedRun {
  return {
    runId: 'r1',
    pool: 'checkpointer/hardened',
    runtime: 'checkpointer',
    variant: 'hardened',
    startedAt: 1_000,
    endedAt,
    evidence: evidence(o),
  };
}

const kinds = (r: CheckedRun, digest: string | null = DIGEST) =>
  checkRun(r, { digest, ledger: [] }).violations.map((v) => v.kind);

describe('the checker, from the outside only', () => {
  it('a clean run: one mail, one note per requirement, the baseline review, nothing late, nothing pending', () => {
    const v = checkRun(run(), { digest: DIGEST, ledger: [] });
    expect(v.violations).toEqual([]);
    expect(v.end).toBe('completed');
    expect(v.durationMs).toBe(4_000);
    // A person's time to answer is not the runtime's.
    expect(checkRun({ ...run(), waitedMs: 1_500 }, { digest: DIGEST, ledger: [] }).durationMs).toBe(2_500);
  });

  it('counts every mail and note the receivers stored beyond one as a duplicate effect', () => {
    const v = checkRun(
      run({ mails: [mail('1'), mail('2'), mail('3')], notes: [note('1', 'p'), note('2', 'p'), note('3', 'q')] }),
      {
        digest: DIGEST,
        ledger: [],
      },
    );
    expect(v.violations.map((x) => [x.kind, x.count])).toEqual([
      ['duplicate-mail', 2],
      ['duplicate-note', 1],
    ]);
  });

  it('a run that never ended is stuck; a failed one with a mail, a completed one without, are both wrong', () => {
    expect(kinds(run({ final: { status: 'running', state: null } }, null))).toEqual(['stuck']);
    expect(kinds(run({ final: null, unreadable: 'server down' }, null))).toEqual(['stuck']);
    expect(kinds(run({ final: { status: 'failed', state: null } }))).toEqual(['mail-of-failed-run']);
    expect(kinds(run({ mails: [] }))).toEqual(['mail-missing']);
    expect(kinds(run({ final: { status: 'failed', state: null }, mails: [] }))).toEqual([]);
  });

  it('a completed review that differs from the uncrashed run, and an outbox row never sent, are violations', () => {
    expect(kinds(run({ final: { status: 'completed', state: reviewState('another text') } }))).toEqual([
      'review-differs',
    ]);
    expect(kinds(run(), null)).toEqual([]); // no baseline review: nothing to compare with
    expect(kinds(run({ outbox: [{ status: 'pending', attempts: 3, lastError: 'HTTP 503' }] }))).toEqual([
      'outbox-unsent',
    ]);
  });
});

describe('late writes', () => {
  const ev = (id: string, writer: string, parentId?: string): DurableMark => ({
    id,
    kind: 'event',
    at: null,
    step: 'DELIVER',
    short: id,
    long: `history event ${id}`,
    writer,
    order: Number(id),
    ...(parentId ? { parentId } : {}),
  });

  it('a checkpoint committed under an older fencing token than one already used', () => {
    const provenance = [1, 1, 2, 1, 2].map((token, i) => ({
      checkpointId: `c${i}`,
      writer: token === 1 ? 'A' : 'B',
      token,
      writtenAt: i,
    }));
    const why = lateWrites(null, provenance);
    expect(why).toHaveLength(1);
    expect(why[0]).toMatch(/c3 written by A with fencing token 1 after token 2 \(B\)/);
    expect(
      lateWrites(
        null,
        provenance.filter((p) => p.checkpointId !== 'c3'),
      ),
    ).toEqual([]);
  });

  it('a checkpoint chain that forks: two writers went on from one checkpoint', () => {
    const durable = checkpointChain([
      ['a', null],
      ['b', 'a'],
      ['c', 'a'],
    ]);
    expect(lateWrites(durable, [])).toEqual(['checkpoint a has two children: two writers went on from it']);
  });

  it('a task closed by another worker than the one the attempt was handed to', () => {
    const durable: DurableRecord = {
      runtime: 'journal',
      kind: 'history',
      marks: [ev('5', 'A'), ev('6', 'B', '5'), ev('7', 'B'), ev('8', 'B', '7')],
    };
    expect(lateWrites(durable, null)).toEqual([
      'history event 6 written by B, but the runtime had handed that attempt to A',
    ]);
  });

  it("a final status written by a worker that was no longer the lease's owner", () => {
    const lease = { leaseToken: 2, leaseClaimedAt: 1_000, finishedAt: 2_000 };
    expect(lateCompletion({ status: 'completed', by: 'LH-001.0', leaseOwner: 'LH-001.1#42', ...lease })).toMatch(
      /written by LH-001.0, while the lease was LH-001.1's/,
    );
    expect(lateCompletion({ status: 'completed', by: 'LH-001.1', leaseOwner: 'LH-001.1#42', ...lease })).toBeNull();
    expect(lateCompletion({ status: 'completed', by: 'LN-001.0', leaseOwner: null, ...lease })).toBeNull();
    // Claimed only after the run had ended: that ending was not late.
    const after = { ...lease, leaseClaimedAt: 3_000 };
    expect(lateCompletion({ status: 'completed', by: 'LH-001.0', leaseOwner: 'LH-001.1#42', ...after })).toBeNull();
    const v = checkRun(run({ completion: { status: 'completed', by: 'A', leaseOwner: 'B#1', ...lease } }), {
      digest: DIGEST,
      ledger: [],
    });
    expect(v.violations.map((x) => x.kind)).toEqual(['late-completion']);
  });
});

describe('extra model spend', () => {
  it('is what the model calls beyond the uncrashed run cost, aborted calls included, faults not', () => {
    const model = (opKey: string, o: Partial<LedgerEntry> = {}) =>
      entry({ kind: 'model', opKey, costUsd: 0.001, ...o });
    const baseline = [model('m1'), model('m2')];
    const ledger = [
      model('m1'),
      model('m1', { outcome: 'aborted' }),
      model('m2'),
      model('m2', { outcome: 'fault', fault: '503', costUsd: 0 }),
      model('m2'),
      entry({ kind: 'web', opKey: 'GET /x' }),
      entry({ kind: 'web', opKey: 'GET /x' }),
    ];
    expect(extraSpend(ledger, baseline)).toBeCloseTo(0.002, 9);
    expect(extraSpend([model('m1'), model('m2')], baseline)).toBe(0);
    expect(extraSpend([model('m1', { costUsd: null }), model('m1', { costUsd: null })], baseline)).toBeNull();
  });
});

describe('a false dead letter: dead-lettered below the cap of the step’s own errors, from the ledger', () => {
  const cap = retryRuleFor('model').maxAttempts;
  const deadAt = (step: string, attempts = cap) =>
    ({
      ...reviewState(),
      failure: { step, error: 'TransientError: model call -> HTTP 503', attempts, input: null },
    }) as unknown as ReviewState;
  const failedRun = (ledger: LedgerEntry[], step = 'EXTRACT', variant: 'hardened' | 'naive' = 'hardened') => ({
    ...run({ final: { status: 'failed', state: deadAt(step) }, mails: [], ledger }),
    variant,
  });
  const fault503 = (step: string, opKey: string) =>
    entry({ kind: 'model', step, opKey, status: 503, outcome: 'fault', fault: '503' });

  it('is one when the ledger shows fewer failed requests of the step than the cap, whatever the dead letter claims', () => {
    // The worker's dead letter says "after 4 attempts"; the world saw two 503s: the others were lost machines.
    const ledger = [fault503('EXTRACT', 'extract sso'), fault503('EXTRACT', 'extract sso')];
    expect(falseDeadLetter(failedRun(ledger))).toMatch(
      /after 2 failed request\(s\) of that step in the ledger, below the cap of 4/,
    );
    expect(kinds(failedRun(ledger))).toEqual(['false-dead-letter']);
  });

  it('is none at the cap of one operation’s failures, and failures of other steps or operations do not add up', () => {
    const atCap = Array.from({ length: cap }, () => fault503('EXTRACT', 'extract sso'));
    expect(falseDeadLetter(failedRun(atCap))).toBeNull();
    const spread = [
      ...Array.from({ length: cap - 1 }, () => fault503('EXTRACT', 'extract sso')),
      fault503('EXTRACT', 'extract dpa'),
      fault503('DRAFT', 'draft'),
    ];
    expect(falseDeadLetter(failedRun(spread))).toMatch(/after 3 failed/);
  });

  it('is none for a permanent error (a 4xx other than 429 is a full reason after one), nor for a naive run', () => {
    const refused = [
      entry({ kind: 'tracker', step: 'SAVE_PROGRESS', opKey: 'note sso', status: 422, outcome: 'fault', fault: '422' }),
    ];
    expect(falseDeadLetter(failedRun(refused, 'SAVE_PROGRESS'))).toBeNull();
    expect(falseDeadLetter(failedRun([], 'EXTRACT', 'naive'))).toBeNull();
    expect(falseDeadLetter(run())).toBeNull();
  });

  it('a call whose worker died under it (aborted) is a lost machine, not an own error', () => {
    const lost = entry({
      kind: 'model',
      step: 'EXTRACT',
      opKey: 'extract sso',
      status: 0,
      outcome: 'aborted',
      fault: 'slow',
    });
    const ledger = [fault503('EXTRACT', 'extract sso'), lost, lost, fault503('EXTRACT', 'extract sso')];
    expect(falseDeadLetter(failedRun(ledger))).toMatch(/after 2 failed/);
  });

  it('a stage retries as a whole: every failed request of the run counts', () => {
    const spread = [fault503('EXTRACT', 'a'), fault503('EXTRACT', 'b'), fault503('DRAFT', 'c'), fault503('DRAFT', 'd')];
    expect(falseDeadLetter(failedRun(spread, 'EXTRACT (in REQUIREMENT)'))).toBeNull();
    expect(falseDeadLetter(failedRun(spread.slice(0, 2), 'EXTRACT (in REQUIREMENT)'))).toMatch(/after 2 failed/);
  });

  it('counts in its own column and makes the hardened row unclean', () => {
    const verdict = checkRun(failedRun([]), { digest: DIGEST, ledger: [] });
    const row = poolRow({
      pool: 'journal/hardened',
      runtime: 'journal',
      variant: 'hardened',
      verdicts: [verdict],
      faults: {
        kill: 2,
        'crash-point': 0,
        pause: 0,
        'postgres-restart': 0,
        'server-restart': 0,
        'approve-while-down': 0,
        partition: 0,
      },
    });
    expect(row).toMatchObject({ deadLettered: 1, falseDeadLetters: 1, otherViolations: 0 });
    expect(clean(row)).toBe(false);
  });
});

describe('a row per runtime × variant', () => {
  it('adds the runs up; the table can fail', () => {
    const verdicts = [
      checkRun(run({ mails: [mail('1'), mail('2')] }), { digest: DIGEST, ledger: [] }),
      checkRun(run({}, 3_000), { digest: DIGEST, ledger: [] }),
      checkRun(run({ final: { status: 'failed', state: null }, mails: [] }), { digest: DIGEST, ledger: [] }),
      checkRun(run({ final: { status: 'running', state: null } }, null), { digest: DIGEST, ledger: [] }),
    ];
    const row = poolRow({
      pool: 'checkpointer/naive',
      runtime: 'checkpointer',
      variant: 'naive',
      verdicts,
      faults: {
        kill: 1,
        'crash-point': 2,
        pause: 0,
        'postgres-restart': 0,
        'server-restart': 0,
        'approve-while-down': 1,
        partition: 0,
      },
    });
    expect(row).toMatchObject({ runs: 4, completed: 2, deadLettered: 1, stuck: 1, duplicateEffects: 1, lateWrites: 0 });
    expect(row.timeToCompletionMs).toMatchObject({ n: 2, median: 3_000, p95: 4_000 });
    expect(clean(row)).toBe(false);
    expect(clean({ stuck: 0, duplicateEffects: 0, lateWrites: 0 })).toBe(true);
  });
});
