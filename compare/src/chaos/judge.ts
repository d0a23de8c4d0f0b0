import type { Variant } from '@vendor-review/pipeline';
import { safeDigest } from '@vendor-review/conformance';
import type { TrackedRun } from './campaign-state.ts';
import { checkRun, poolRow, type Baseline, type PoolRow, type RunVerdict } from './checker.ts';
import type { StrikeCounts } from './injector.ts';
import type { JournalEntry } from './journal.ts';
import type { RunEvidence } from './run-evidence.ts';
import type { Strike } from './schedule.ts';

/**
 * The campaign's last phase, a plain function of what the others left: each review judged
 * (checker.ts) against the baseline of its pool and vendor, a row per pool for the table, and the
 * strikes of the schedule that came due, each marked fired or not.
 */
export interface BaselineRun extends Baseline {
  pool: string;
  vendor: string;
  runId: string;
}

export interface JudgedPool {
  id: string;
  runtime: string;
  variant: Variant;
  /** The runtime's title, for the table. */
  title: string;
  strikes: StrikeCounts;
}

export interface Judgement {
  rows: (PoolRow & { title: string })[];
  verdicts: Map<string, RunVerdict>;
  baselines: { pool: string; vendor: string; runId: string; digest: string | null }[];
  strikes: (Strike & { fired: boolean })[];
}

export function judge(o: {
  runs: readonly TrackedRun[];
  evidence: ReadonlyMap<string, RunEvidence>;
  pools: readonly JudgedPool[];
  journal: readonly JournalEntry[];
  schedule: readonly Strike[];
  /** Epoch ms of the schedule's zero. */
  strikesFrom: number;
  /** How long the strikes went on. */
  injectedFor: number;
}): Judgement {
  const baselines = baselinesOf(o.runs, o.evidence);
  const verdicts = verdictsOf(o.runs, o.evidence, baselines);
  return {
    rows: o.pools.map((p) => poolRowOf(p, o.runs, verdicts, o.journal, o.strikesFrom)),
    verdicts,
    baselines: [...baselines.values()].map(({ pool, vendor, runId, digest }) => ({ pool, vendor, runId, digest })),
    strikes: strikesDue(o.schedule, o.injectedFor, o.journal),
  };
}

const baselineKey = (pool: string, vendor: string) => `${pool}/${vendor}`;

/** Each baseline by pool and vendor: the digest of its review (null unless it completed) and its ledger. */
export function baselinesOf(
  runs: readonly TrackedRun[],
  evidence: ReadonlyMap<string, RunEvidence>,
): Map<string, BaselineRun> {
  const out = new Map<string, BaselineRun>();
  for (const r of runs.filter((x) => x.baseline)) {
    const rec = evidence.get(r.handle.runId);
    const digest = rec?.final?.status === 'completed' ? safeDigest(rec.final.state) : null;
    out.set(baselineKey(r.pool, r.plan.vendor), {
      pool: r.pool,
      vendor: r.plan.vendor,
      runId: r.handle.runId,
      digest,
      ledger: rec?.ledger ?? [],
    });
  }
  return out;
}

/** The time a person took to answer is not the runtime's: held approvals wait on purpose. */
export function waitedMs(run: Pick<TrackedRun, 'gateSince' | 'approvals'>): number {
  return run.gateSince !== null && run.approvals[0] ? Math.max(0, run.approvals[0].at - run.gateSince) : 0;
}

export function verdictsOf(
  runs: readonly TrackedRun[],
  evidence: ReadonlyMap<string, RunEvidence>,
  baselines: ReadonlyMap<string, BaselineRun>,
): Map<string, RunVerdict> {
  const verdicts = new Map<string, RunVerdict>();
  for (const r of runs.filter((x) => !x.baseline)) {
    const base = baselines.get(baselineKey(r.pool, r.plan.vendor)) ?? null;
    verdicts.set(
      r.handle.runId,
      checkRun(
        {
          runId: r.handle.runId,
          pool: r.pool,
          runtime: r.runtime,
          variant: r.variant,
          startedAt: r.startedAt,
          endedAt: r.endedAt,
          waitedMs: waitedMs(r),
          evidence: evidence.get(r.handle.runId)!,
        },
        base,
      ),
    );
  }
  return verdicts;
}

function poolRowOf(
  p: JudgedPool,
  runs: readonly TrackedRun[],
  verdicts: ReadonlyMap<string, RunVerdict>,
  journal: readonly JournalEntry[],
  strikesFrom: number,
): PoolRow & { title: string } {
  // What the pool's own armed workers did once the reviews began (no strike caused it).
  const armed = (kind: string) =>
    journal.filter((e) => e.kind === kind && e.pool === p.id && e.strike === undefined && e.at >= strikesFrom).length;
  const row = poolRow({
    pool: p.id,
    runtime: p.runtime,
    variant: p.variant,
    verdicts: runs.filter((r) => r.pool === p.id && !r.baseline).map((r) => verdicts.get(r.handle.runId)!),
    faults: {
      kill: p.strikes.kill,
      'crash-point': armed('crash-point'),
      // Strikes froze workers at random moments; armed plans at their points.
      pause: p.strikes.pause + armed('pause'),
      'postgres-restart': p.strikes['postgres-restart'],
      'server-restart': p.strikes['server-restart'],
      'approve-while-down': p.strikes['approve-while-down'],
      partition: p.strikes.partition,
    },
  });
  return { ...row, title: p.title };
}

/** The strikes the schedule had due before the strikes ended, each marked whether it fired. */
export function strikesDue(
  schedule: readonly Strike[],
  injectedFor: number,
  journal: readonly JournalEntry[],
): (Strike & { fired: boolean })[] {
  const fired = new Set(journal.filter((e) => e.kind === 'strike').map((e) => e.strike));
  return schedule.filter((s) => s.at <= injectedFor).map((s) => ({ ...s, fired: fired.has(s.seq) }));
}
