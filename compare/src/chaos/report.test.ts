import { describe, expect, it } from 'vitest';
import { CHAOS_RUNTIME_NAMES, parseChaosArgs } from './args.ts';
import { toHtml } from '../report/render-html.ts';
import { toText } from '../report/render-text.ts';
import { chaosDocument } from './document.ts';
import { DEFAULT_SCHEDULE } from './schedule.ts';
import { ChaosResultSchema, type ChaosResult } from './schema.ts';

const plan = {
  index: 3,
  vendor: 'acme-analytics',
  crash: 'after-deliver',
  stopMs: null,
  faults: [],
  holdApproval: false,
};
const faults = {
  kill: 4,
  'crash-point': 2,
  pause: 1,
  'postgres-restart': 1,
  'server-restart': 0,
  'world-fault': 5,
  'approve-while-down': 1,
  partition: 2,
};
const row = (variant: 'naive' | 'hardened', duplicateEffects: number) => ({
  pool: `checkpointer/${variant}`,
  runtime: 'checkpointer',
  title: 'Checkpointer',
  variant,
  runs: 4,
  faults,
  completed: 3,
  deadLettered: 1,
  stuck: 0,
  duplicateEffects,
  lateWrites: 0,
  falseDeadLetters: 0,
  otherViolations: 0,
  extraSpendUsd: 0.00012,
  timeToCompletionMs: { n: 3, median: 2_500, p95: 9_000, min: 2_000, max: 9_000 },
  violationsByKind: duplicateEffects ? { 'duplicate-mail': duplicateEffects } : {},
});

function fixture(hardenedDuplicates = 0): ChaosResult {
  const violation = (pool: string, runId: string) => ({
    runId,
    pool,
    kind: 'duplicate-mail' as const,
    count: 1,
    detail: 'the mailer stored 2 mails for this run',
    seed: 's1',
    plan,
    startedAt: 10_000,
    endedAt: 14_000,
    schedule: [
      { at: 10_000, kind: 'worker-start', pool, worker: 'LN-003.0', pid: 11, runId, detail: 'armed after-deliver' },
      {
        at: 12_000,
        kind: 'crash-point',
        pool,
        worker: 'LN-003.0',
        pid: 11,
        runId,
        detail: 'after-deliver@1 message=msg-0001',
      },
    ],
    replay: `pnpm chaos --seed s1 --run ${runId}`,
  });
  return ChaosResultSchema.parse({
    schemaVersion: 1,
    meta: {
      seed: 's1',
      runsPerPool: 4,
      runtimes: ['checkpointer'],
      variants: ['naive', 'hardened'],
      workers: 2,
      boundSeconds: 120,
      startedAt: new Date(0).toISOString(),
      strikesFrom: 9_000,
      wallTimeMs: 60_000,
      command: 'pnpm chaos --seed s1',
      replayOf: null,
      machine: {
        hostname: 'h',
        cpus: 2,
        cpuModel: 'cpu',
        memoryGiB: 24,
        platform: 'linux',
        loadAverage: { start: 1, end: 2 },
      },
      versions: { node: '20', checkpointer: '1' },
      infra: { world: 'w', postgres: 'p', servers: [] },
      schedule: {
        ...DEFAULT_SCHEDULE,
        pauseMs: [...DEFAULT_SCHEDULE.pauseMs],
        points: [...DEFAULT_SCHEDULE.points],
        vendors: ['acme-analytics'],
      },
      baselines: [{ pool: 'checkpointer/naive', vendor: 'acme-analytics', runId: 'chs1-cp-naive-b0', digest: 'abc' }],
      notes: [],
    },
    rows: [row('naive', 1), row('hardened', hardenedDuplicates)],
    violations: [
      violation('checkpointer/naive', 'chs1-cp-naive-003'),
      ...(hardenedDuplicates ? [violation('checkpointer/hardened', 'chs1-cp-hard-003')] : []),
    ],
    runs: [
      {
        runId: 'chs1-cp-naive-003',
        pool: 'checkpointer/naive',
        index: 3,
        vendor: 'acme-analytics',
        end: 'completed',
        startedAt: 10_000,
        endedAt: 14_000,
        durationMs: 4_000,
        extraSpendUsd: 0,
        violations: 1,
        failure: null,
        plan,
      },
    ],
    strikes: [{ seq: 1, kind: 'kill', at: 2_000, pick: 5, fired: true }],
    journal: [],
  });
}

describe('the table and the report', () => {
  it('the table has a row per runtime × variant, the fault counts, the verdict and each violation with its replay', () => {
    const text = toText(chaosDocument(fixture()), { color: false });
    expect(text).toMatch(
      /Checkpointer naive +4 4\/2\/1\/2\/1\/0\/5\/1 +3 +1 +0 +0 +1 +0 +0 +\$0\.00012 +2\.50 s +9\.00 s/,
    );
    expect(text).toMatch(/hardened: no stuck run, no duplicate effect, no late write accepted/);
    expect(text).toMatch(/chs1-cp-naive-003 duplicate-mail: the mailer stored 2 mails/);
    expect(text).toMatch(/replay: pnpm chaos --seed s1 --run chs1-cp-naive-003/);
    expect(text.split('\n').every((l) => l.length <= 120)).toBe(true);
    expect(toText(chaosDocument(fixture(1)), { color: false })).toMatch(/hardened: NOT clean/);
  });

  it('chaos.html is one file with the table, the campaign drawn in time, and every violation with its schedule', () => {
    const html = toHtml(chaosDocument(fixture(1)));
    expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3)/);
    expect(html).toMatch(/<svg/);
    expect(html).toMatch(/Hardened: NOT clean/);
    for (const id of ['chs1-cp-naive-003', 'chs1-cp-hard-003']) expect(html).toContain(id);
    expect(html).toContain('pnpm chaos --seed s1 --run chs1-cp-hard-003');
    expect(html).toContain('after-deliver@1 message=msg-0001');
  });
});

describe('the command line', () => {
  it('defaults to a quick campaign over every runtime it drives and both variants, and refuses what it cannot do', () => {
    const o = parseChaosArgs(['--seed', 'abc']);
    expect(o).toMatchObject({
      seed: 'abc',
      runs: 4,
      runtimes: CHAOS_RUNTIME_NAMES,
      variants: ['naive', 'hardened'],
    });
    expect(parseChaosArgs(['--runs', '500', '--runtime', CHAOS_RUNTIME_NAMES.at(-1)!]).runs).toBe(500);
    expect(parseChaosArgs([]).seedDrawn).toBe(true);
    expect(() => parseChaosArgs(['--runs', '0'])).toThrow(/--runs/);
    expect(() => parseChaosArgs(['--runtime', 'plain'])).toThrow(/unknown runtime "plain"/);
    expect(() => parseChaosArgs(['--run', 'chs1-cp-naive-003'])).toThrow(/--seed/);
    expect(() => parseChaosArgs(['--seed', 'a b'])).toThrow(/--seed/);
    expect(() => parseChaosArgs(['--help'])).toThrow(/help requested/);
  });
});
