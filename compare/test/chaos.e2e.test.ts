import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseChaosArgs } from '../src/chaos/args.ts';
import { runtimeInfos } from '../src/runtimes.ts';
import { clean } from '../src/chaos/checker.ts';
import { runChaos, type RunChaosResult } from '../src/chaos/run-chaos.ts';
import { DEFAULT_SCHEDULE, runPlan, workerPlan, type ScheduleOptions } from '../src/chaos/schedule.ts';
import { ChaosResultSchema } from '../src/chaos/schema.ts';
import { userDatabase } from './user-database.ts';

/**
 * Two short seeded chaos campaigns, for real: both runtimes, both variants, two reviews each, real
 * worker processes, real PostgreSQL and a real Temporal dev server.
 *
 * The first arms crash points and strikes only with Temporal dev-server restarts, which neither
 * kills a worker nor touches LangGraph: every armed point is reached, whatever the machine's speed,
 * so the naive variants' duplicates are certain and the checker must find them (it can fail). The
 * second adds what strikes at random moments (SIGKILL, SIGSTOP past the lease, PostgreSQL restarts,
 * approvals sent while every worker is down): a timed kill may pre-empt an armed point, so there
 * the naive rows are only counted, and the hardened ones must stay clean.
 *
 * Both schedules are cut down so that this holds on any machine: only effects are armed (a second
 * mail or note is the naive failure the checker exists for), no world faults (a naive LangGraph run
 * fails on the first one, before any effect), one vendor (one baseline per pool).
 */
const SEED = 'ci90';
const RUNTIMES = ['langgraph', 'temporal'];
const CUT_DOWN: Partial<Omit<ScheduleOptions, 'seed'>> = {
  armRate: 0.5,
  points: ['after-deliver', 'after-progress'],
  maxOccurrence: 1,
  worldFaultRate: 0,
  vendors: ['acme-analytics'],
};
const ARMED_ONLY: Partial<Omit<ScheduleOptions, 'seed'>> = {
  ...CUT_DOWN,
  gapsMs: {
    kill: 0,
    pause: 0,
    'postgres-restart': 0,
    'server-restart': 20_000,
    'world-burst': 0,
    'approve-while-down': 0,
    partition: 0,
  },
  holdApprovalRate: 0,
};
const STRIKES: Partial<Omit<ScheduleOptions, 'seed'>> = {
  ...CUT_DOWN,
  gapsMs: {
    kill: 15_000,
    pause: 20_000,
    'postgres-restart': 25_000,
    'server-restart': 30_000,
    'world-burst': 0,
    'approve-while-down': 15_000,
    partition: 10_000,
  },
};

async function campaign(schedule: Partial<Omit<ScheduleOptions, 'seed'>>): Promise<RunChaosResult> {
  const reportDir = mkdtempSync(path.join(os.tmpdir(), 'chaos-e2e-'));
  const user = await userDatabase();
  const started = Date.now();
  const result = await runChaos(
    {
      ...parseChaosArgs([
        ...['--seed', SEED, '--runs', '2', '--bound', '90', '--report-dir', reportDir],
        // The two runtimes whose campaign this test knows: each runtime added to the registry
        // brings its own (the defaults follow the registry: registry-consumers.test.ts).
        ...['--runtime', RUNTIMES.join(',')],
      ]),
    },
    { log: (l) => process.stderr.write(`${l}\n`), env: user.env, schedule },
  ).finally(() => user.cleanup());
  process.stderr.write(`chaos e2e: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return result;
}

let armed: RunChaosResult;
let out: RunChaosResult;

beforeAll(async () => {
  armed = await campaign(ARMED_ONLY);
  out = await campaign(STRIKES);
}, 15 * 60_000);

describe('a seeded campaign of armed crash points', () => {
  it('arms what it says it arms, and reaches it: every naive pool meets an effect it can duplicate', () => {
    const o = { ...DEFAULT_SCHEDULE, ...ARMED_ONLY, seed: SEED };
    // The precondition of the checks below, read from the schedule itself: if the generator ever
    // changes, this says so instead of the naive rows silently coming out clean.
    const kills = (crash: string | null | undefined) => !!crash && !crash.endsWith(':stop');
    expect([runPlan(o, 0).crash, runPlan(o, 1).crash].every(kills)).toBe(true);
    expect([workerPlan(o, 0, 1)?.crash, workerPlan(o, 1, 1)?.crash].every(kills)).toBe(true);
    for (const row of armed.result.rows.filter((r) => r.variant === 'naive'))
      expect(row.faults['crash-point'], row.pool).toBeGreaterThan(0);
  });

  it('the checker finds the naive duplicates, in both runtimes', () => {
    for (const runtime of RUNTIMES) {
      const row = armed.result.rows.find((r) => r.runtime === runtime && r.variant === 'naive')!;
      expect(row.duplicateEffects, JSON.stringify(row)).toBeGreaterThan(0);
      expect(clean(row)).toBe(false);
    }
  });

  it('and nothing in the hardened variants', () => {
    for (const row of armed.result.rows.filter((r) => r.variant === 'hardened'))
      expect(clean(row), row.pool).toBe(true);
  });
});

describe('a seeded campaign of armed crash points and strikes at random moments', () => {
  it('and nothing in the hardened variants: no stuck run, no duplicate effect, no late write', () => {
    const hardened = out.result.rows.filter((r) => r.variant === 'hardened');
    expect(hardened).toHaveLength(2);
    const theirs = out.result.violations.filter((v) => v.pool.endsWith('/hardened'));
    for (const row of hardened) expect(clean(row), `${row.pool}: ${JSON.stringify(theirs)}`).toBe(true);
    expect(out.clean).toBe(true);
  });

  it('every violation names its run, the schedule around it, the seed and the command that replays it', () => {
    expect(armed.result.violations.length).toBeGreaterThan(0);
    for (const v of [...armed.result.violations, ...out.result.violations]) {
      expect(v.seed).toBe(SEED);
      expect(v.replay).toContain(`--seed ${SEED} --run ${v.runId}`);
      expect(v.schedule.some((e) => e.kind === 'worker-start' || e.kind === 'kill')).toBe(true);
      expect(v.plan.vendor).toBe('acme-analytics');
    }
  });

  it('writes chaos.json (valid against its schema) and chaos.html', async () => {
    for (const c of [armed, out]) {
      const json = ChaosResultSchema.parse(JSON.parse(readFileSync(c.files.json, 'utf8')));
      expect(json.meta.seed).toBe(SEED);
      expect(json.runs).toHaveLength(8);
      // Each row titled as its runtime's module says, for the table and chaos.html.
      const titles = new Map((await runtimeInfos(RUNTIMES)).map((i) => [i.name, i.title]));
      for (const row of json.rows) expect(row.title, row.pool).toBe(titles.get(row.runtime));
      const html = readFileSync(c.files.html, 'utf8');
      for (const v of json.violations) expect(html).toContain(v.runId);
    }
  });
});
