import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { worldClient } from '@vendor-review/world';
import { flatVersions, machine, versions } from '../bench/machine.ts';
import { serverVersions, startInfra, type Infra } from '../infra.ts';
import type { CampaignOptions } from './campaign-plan.ts';
import { createPools, quiesce, readEvidence, runBaselines, runReviews, settle, startPools } from './campaign-phases.ts';
import { CampaignState, type CampaignProgress, type PoolEntry, type TrackedRun } from './campaign-state.ts';
import { judge, type Judgement } from './judge.ts';
import { Journal, type JournalEntry } from './journal.ts';
import type { RunEvidence } from './run-evidence.ts';
import { chaosQueue } from './runtimes.ts';

/**
 * The campaign runner: brings everything up, runs one uncrashed baseline per runtime, variant and
 * vendor, then N reviews per runtime × variant through their pools while the injector strikes on
 * the seed's schedule, lets everything quiesce (no strike, every run ended or past the bound, no
 * outbox row waiting), stops every worker, reads the records and hands them to the checker. Each
 * run is followed (followRun) from its start until it ends or the campaign is over, and approved
 * once the schedule lets it.
 *
 * The plan comes from the options alone (campaign-plan.ts); the state lives in one CampaignState
 * (campaign-state.ts); each phase that runs something is a function of that state
 * (campaign-phases.ts); the verdicts are a plain function of what they left (judge.ts).
 */
export interface CampaignOutcome extends Judgement {
  startedAt: number;
  /** Epoch ms of the schedule's zero (null when no strike phase ran). */
  strikesFrom: number | null;
  wallTimeMs: number;
  runs: TrackedRun[];
  evidence: Map<string, RunEvidence>;
  journal: Journal;
  infra: { world: string; postgres: string; servers: string[] };
  machine: ReturnType<typeof machine>;
  versions: Record<string, string | null>;
  notes: string[];
}

export async function runCampaign(o: CampaignOptions, progress: CampaignProgress): Promise<CampaignOutcome> {
  const began = Date.now();
  const host = machine();
  const journal = new Journal((e) => {
    if (e.kind === 'strike' || e.kind === 'server-restart' || e.kind === 'give-up' || e.kind === 'takeover')
      progress.log(`  ${e.kind}${e.strike ? ` #${e.strike}` : ''}${e.pool ? ` ${e.pool}` : ''}: ${e.detail}`);
  });
  // Every run of a variant goes to one queue its pool serves (for a runtime with queues).
  const tag = `${o.seed}-${randomBytes(3).toString('hex')}`;
  const infra = await startInfra({
    runtimes: o.runtimes,
    sharedQueue: chaosQueue(tag),
    ...(o.env ? { env: o.env } : {}),
    log: progress.log,
    command: o.command ?? 'pnpm chaos',
  });
  let pools: PoolEntry[] = [];
  try {
    pools = createPools(o, infra, journal);
    await startPools(pools, progress);
    const state = new CampaignState(o, { infra, world: worldClient(infra.worldUrl), pools, journal, progress });
    const outcome = await campaign(state);
    return {
      ...outcome,
      startedAt: began,
      wallTimeMs: Date.now() - began,
      journal,
      infra: describeInfra(infra),
      machine: { ...host, loadAverage: { ...host.loadAverage, end: Math.round(os.loadavg()[0]! * 100) / 100 } },
      versions: flatVersions(await versions(infra.databaseUrl, serverVersions(infra), o.runtimes)),
      notes: state.notes,
    };
  } finally {
    await Promise.all(pools.map((e) => e.pool.stop()));
    await infra.teardown();
  }
}

/** The phases in order, from the baselines to the verdicts. */
async function campaign(
  c: CampaignState,
): Promise<Omit<CampaignOutcome, 'startedAt' | 'wallTimeMs' | 'journal' | 'infra' | 'machine' | 'versions' | 'notes'>> {
  try {
    await runBaselines(c);
    await runReviews(c);
    await quiesce(c);
    await settle(c);
    const evidence = await readEvidence(c);
    const judgement = judge({
      runs: c.runs,
      evidence,
      pools: c.pools.map((e) => ({
        id: e.pool.id,
        runtime: e.rt.name,
        variant: e.variant,
        title: e.rt.info.title,
        strikes: c.injector.counts.get(e.pool.id)!,
      })),
      journal: c.journal.entries,
      schedule: c.schedule,
      strikesFrom: c.strikesFrom!,
      injectedFor: c.injectedFor,
    });
    return { ...judgement, strikesFrom: c.strikesFrom, runs: c.runs, evidence };
  } finally {
    // A campaign that failed half-way leaves nothing polling behind it.
    await c.stopFollowing();
  }
}

function describeInfra(infra: Infra): CampaignOutcome['infra'] {
  const d = infra.describe();
  return { world: d.world, postgres: d.postgres, servers: d.servers.map((s) => `${s.title} ${s.description}`) };
}

/** The journal around one run: its own entries, and what struck its pool or its servers while it lived. */
export function scheduleAround(
  journal: Journal,
  run: TrackedRun,
  workers: ReadonlySet<string> | undefined,
): JournalEntry[] {
  return journal.around({
    from: run.startedAt - 1_000,
    to: (run.endedAt ?? Date.now()) + 1_000,
    pool: run.pool,
    runId: run.handle.runId,
    ...(workers ? { workers } : {}),
  });
}
