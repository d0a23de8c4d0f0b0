import { type Variant } from '@vendor-review/pipeline';
import { HAZARD_IDS, HAZARDS, expectedVerdict, type HazardId } from '../catalogue/hazards.ts';
import { type RuntimeInfo } from '../adapter.ts';
import { DrillUnavailableError } from '../adapter.ts';
import { hazardHarm } from '../evidence.ts';
import { inLanes } from '../lanes.ts';
import { worldClient } from '@vendor-review/world';
import { badInputHazard } from './bad-input.ts';
import { deployHazard } from './deploy.ts';
import { lostWorkersHazard } from './lost-workers.ts';
import { memoryHazard } from './memory.ts';
import { restartHazard } from './restarts.ts';
import { retentionHazard } from './retention.ts';
import { rollingDeployHazard } from './rolling-deploy.ts';
import { nondeterminismHazard } from './nondeterminism.ts';
import { partitionHazard } from './partition.ts';
import { retryHazard } from './retries.ts';
import { twoWritersHazard } from './two-writers.ts';
import { zombieHazard } from './zombie.ts';
import { zombiePastTimeoutsHazard } from './zombie-past-timeouts.ts';
import {
  HazardSkipped,
  type HazardEnv,
  type HazardObservation,
  type HazardRunner,
  type HazardScenario,
} from './types.ts';

/** Each hazard's procedure, one module per idea. */
export const HAZARD_RUNNERS: Record<HazardId, HazardRunner> = {
  'retry-transient': retryHazard,
  'retry-exhausted': retryHazard,
  'retry-permanent': retryHazard,
  'retry-lost-workers': lostWorkersHazard,
  'retry-lost-workers-exhausted': lostWorkersHazard,
  'bad-input': badInputHazard,
  'deploy-v1-state': deployHazard,
  'deploy-unknown-format': deployHazard,
  'memory-lost': memoryHazard,
  'rolling-deploy': rollingDeployHazard,
  'restart-postgres': restartHazard,
  'restart-server': restartHazard,
  retention: retentionHazard,
  'two-writers': twoWritersHazard,
  zombie: zombieHazard,
  'zombie-at-effect': zombieHazard,
  'zombie-past-timeouts': zombiePastTimeoutsHazard,
  partition: partitionHazard,
  'partition-at-effect': partitionHazard,
  'nondeterministic-effect': nondeterminismHazard,
};

/**
 * Hazards that restart a server (PostgreSQL, the Temporal server). On servers of their own they run
 * beside the rest, one at a time; on servers other rows share, one at a time once nothing else
 * runs, so no other row meets an outage it did not ask for.
 */
export const RESTARTS_A_SERVER: ReadonlySet<HazardId> = new Set<HazardId>(['restart-postgres', 'restart-server']);

/** Every hazard for every runtime that takes part in the production suite, in both variants. */
export function productionCatalogue(
  runtimes: readonly RuntimeInfo[],
  hazards: readonly HazardId[] = HAZARD_IDS,
): HazardScenario[] {
  const out: HazardScenario[] = [];
  for (const hazard of hazards) {
    for (const rt of runtimes) {
      if (rt.suites && !rt.suites.includes('production')) continue;
      if ('optIn' in HAZARDS[hazard] && !rt.optInHazards?.includes(hazard)) continue;
      for (const variant of [...new Set(rt.configurations.map((c) => c.variant))] as Variant[]) {
        out.push({
          id: `${hazard}/${rt.name}/${variant}`,
          hazard,
          runtime: rt.name,
          variant,
          deviations: rt.hazardDeviations ?? [],
        });
      }
    }
  }
  return out;
}

export async function runHazard(scenario: HazardScenario, env: HazardEnv, repetition = 0): Promise<HazardObservation> {
  const startedAt = Date.now();
  const base = {
    scenario,
    repetition,
    startedAt,
    ledger: [],
    durable: null,
    figures: {},
    runId: null,
    harm: hazardHarm([]),
  };
  try {
    const o = await HAZARD_RUNNERS[scenario.hazard](env, scenario);
    const ledger = o.ledger ?? (o.runId ? await worldClient(env.worldUrl).ledger({ runId: o.runId }) : []);
    return {
      ...base,
      ...o,
      status: 'ran',
      note: o.note ?? null,
      ledger,
      harm: hazardHarm(ledger),
      durable: o.durable ?? null,
      endedAt: Date.now(),
    };
  } catch (err) {
    const skipped = err instanceof HazardSkipped || err instanceof DrillUnavailableError;
    return {
      ...base,
      status: skipped ? 'skipped' : 'error',
      verdict: null,
      note: (err as Error).message,
      endedAt: Date.now(),
    };
  }
}

/** The verdict a hazard row must show, and where it does not. */
export function checkHazard(obs: HazardObservation): { expected: string; why: string | null; violations: string[] } {
  const { hazard, variant, deviations } = obs.scenario;
  const { verdict: expected, alsoSeen, why } = expectedVerdict(hazard, variant, deviations);
  const violations: string[] = [];
  if (obs.status === 'error') violations.push(`could not run: ${obs.note}`);
  else if (obs.status === 'ran' && obs.verdict !== expected && !alsoSeen.includes(obs.verdict ?? '')) {
    const said: Record<string, string> = HAZARDS[hazard].verdicts;
    violations.push(`${obs.verdict}: ${said[obs.verdict ?? ''] ?? '?'}; expected ${expected}: ${said[expected]}`);
  }
  return { expected: [expected, ...alsoSeen].join(' or '), why, violations };
}

/**
 * Runs hazard rows through one adapter, a few at a time (those in RESTARTS_A_SERVER afterwards, one
 * by one: they share its servers): the usual `run` of a productionSpec.
 */
export function runHazardsThroughAdapter(
  env: () => HazardEnv,
  opts: { concurrency?: number } = {},
): (scenarios: HazardScenario[]) => Promise<HazardObservation[]> {
  return async (scenarios) => {
    const together = scenarios.filter((s) => !RESTARTS_A_SERVER.has(s.hazard));
    const alone = scenarios.filter((s) => RESTARTS_A_SERVER.has(s.hazard));
    const seen = new Map<HazardScenario, HazardObservation>();
    const run = async (s: HazardScenario) => {
      const o = await runHazard(s, env());
      seen.set(s, o);
      return o;
    };
    await inLanes(together, { concurrency: opts.concurrency ?? 4 }, run);
    await inLanes(alone, { concurrency: 1 }, run);
    return scenarios.map((s) => seen.get(s)!);
  };
}
