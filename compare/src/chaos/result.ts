import type { CampaignOptions } from './campaign-plan.ts';
import type { TrackedRun } from './campaign-state.ts';
import { scheduleAround, type CampaignOutcome } from './campaign.ts';
import { ChaosResultSchema, CHAOS_SCHEMA_VERSION, type ChaosResult } from './schema.ts';

/**
 * chaos.json as the campaign's outcome turns into it: the table's rows, every violation with the
 * schedule around its run and the command that replays it, every run in one line, the strikes.
 * Validated against the schema before anyone writes it.
 */
export function replayCommand(seed: string, runId: string, reportDir: string | null): string {
  return `pnpm chaos --seed ${seed} --run ${runId}${reportDir ? ` --report-dir ${reportDir}` : ''}`;
}

export function buildResult(
  o: CampaignOptions,
  outcome: CampaignOutcome,
  extra: { command: string; reportDir: string | null; replayOf: string | null },
): ChaosResult {
  const byId = new Map(outcome.runs.map((r) => [r.handle.runId, r]));
  const workersOf = (run: TrackedRun) => {
    // A process per run: only its own processes; a queue pool: every worker (the journal window limits them).
    const own = outcome.journal.entries.filter((e) => e.kind === 'worker-start' && e.runId === run.handle.runId);
    return own.length ? new Set(own.map((e) => e.worker!)) : undefined;
  };
  const violations = [...outcome.verdicts.values()].flatMap((v) =>
    v.violations.map((x) => {
      const run = byId.get(x.runId)!;
      return {
        runId: x.runId,
        pool: run.pool,
        kind: x.kind,
        count: x.count,
        detail: x.detail,
        seed: o.seed,
        plan: run.plan,
        startedAt: run.startedAt,
        endedAt: run.endedAt,
        schedule: scheduleAround(outcome.journal, run, workersOf(run)),
        replay: replayCommand(o.seed, x.runId, extra.reportDir),
      };
    }),
  );
  const result: ChaosResult = {
    schemaVersion: CHAOS_SCHEMA_VERSION,
    meta: {
      seed: o.seed,
      runsPerPool: o.only ? o.only.indexes.length : o.runs,
      runtimes: [...o.runtimes],
      variants: [...o.variants],
      workers: o.workers,
      boundSeconds: Math.round(o.boundMs / 1000),
      startedAt: new Date(outcome.startedAt).toISOString(),
      strikesFrom: outcome.strikesFrom,
      wallTimeMs: outcome.wallTimeMs,
      command: extra.command,
      replayOf: extra.replayOf,
      machine: outcome.machine,
      versions: outcome.versions,
      infra: outcome.infra,
      schedule: {
        gapsMs: o.schedule.gapsMs,
        pauseMs: [o.schedule.pauseMs[0], o.schedule.pauseMs[1]],
        cutMs: [o.schedule.cutMs[0], o.schedule.cutMs[1]],
        armRate: o.schedule.armRate,
        points: [...o.schedule.points],
        maxOccurrence: o.schedule.maxOccurrence,
        stopShare: o.schedule.stopShare,
        worldFaultRate: o.schedule.worldFaultRate,
        holdApprovalRate: o.schedule.holdApprovalRate,
        vendors: [...o.schedule.vendors],
      },
      baselines: outcome.baselines,
      notes: outcome.notes,
    },
    rows: outcome.rows,
    violations,
    runs: outcome.runs
      .filter((r) => !r.baseline)
      .map((r) => {
        const v = outcome.verdicts.get(r.handle.runId)!;
        return {
          runId: r.handle.runId,
          pool: r.pool,
          index: r.index,
          vendor: r.plan.vendor,
          end: v.end,
          startedAt: r.startedAt,
          endedAt: r.endedAt,
          durationMs: v.durationMs,
          extraSpendUsd: v.extraSpendUsd,
          violations: v.violations.length,
          failure: v.failure,
          plan: r.plan,
        };
      }),
    strikes: outcome.strikes,
    journal: outcome.journal.entries,
  };
  return ChaosResultSchema.parse(result);
}
