import type { Granularity } from '@vendor-review/pipeline';
import { runCell } from '../cell.ts';
import { sweptConfigurations } from '../granularity/catalogue.ts';
import type { CellObservation } from '../observation.ts';
import type { Scenario } from '../scenarios.ts';
import { worldClient } from '@vendor-review/world';
import { HazardSkipped, type Figure, type HazardEnv, type HazardRunner, type HazardScenario } from './types.ts';

/**
 * A nondeterministic step before an effect. The world's model answers a repeated request in other
 * words (a `vary` fault for the run: a provider at temperature > 0), and worker A dies right after
 * the mail went out, before the step that sent it is durable (after-deliver). Worker B runs that
 * step again.
 *
 * Twice, at once: in `coarse`, whose SEND node drafts and mails in one boundary, so B writes a new
 * draft and sends that; and in `fine`, where DRAFT is recorded before DELIVER starts, so B sends
 * the draft A wrote. The verdict is the coarse run's, from what the customer received (the world's
 * outbox) against the draft the run finally holds; the fine run's figures show what recording the
 * step's result buys.
 */
type Arm = { obs: CellObservation; mails: string[] };

async function runArm(env: HazardEnv, scenario: HazardScenario, granularity: Granularity): Promise<Arm> {
  const config = sweptConfigurations(env.adapter, scenario.variant).find((c) => c.granularity === granularity);
  if (!config) throw new HazardSkipped(`${env.adapter.title} offers no ${granularity} granularity`);
  const id = `${scenario.id}/${granularity}`;
  const cell: Scenario = {
    id,
    runtime: scenario.runtime,
    variant: scenario.variant,
    durability: config.durability,
    granularity,
    crashPoint: 'after-deliver',
    baselineId: id,
    faults: [{ route: 'model', kind: 'vary', times: 'forever' }],
    // The human has said yes before anything runs: the only thing drafted twice is the review.
    approveAtStart: true,
    deviations: env.adapter.crashDeviations ?? [],
  };
  const obs = await runCell(cell, 0, env);
  if (obs.crash?.point !== 'after-deliver')
    throw new Error(`${granularity}: worker A never died after the send (${obs.status}: ${obs.note ?? 'no note'})`);
  const mails = (await worldClient(env.worldUrl).outbox(obs.runId)).map((d) => String(d.body));
  return { obs, mails };
}

/** What the customer's inbox and the run's state say about one arm. */
function facts({ obs, mails }: Arm) {
  const held = obs.finalState?.draft?.text ?? null;
  const mail = obs.ledger.filter((e) => e.kind === 'mail');
  return {
    held,
    mails,
    drafts: obs.ledger.filter((e) => e.kind === 'model' && e.step === 'DRAFT' && e.outcome === 'ok').length,
    distinct: new Set(mails).size,
    refused: mail.filter((e) => e.outcome === 'conflict').length,
    collapsed: mail.filter((e) => e.outcome === 'deduplicated').length,
    agrees: mails.length > 0 && held !== null && mails.every((body) => body.includes(held)),
    ended: obs.finalState?.failure
      ? `failed in ${obs.finalState.failure.step}`
      : obs.status === 'completed'
        ? 'completed'
        : obs.status,
  };
}

export const nondeterminismHazard: HazardRunner = async (env, scenario) => {
  const [merged, recorded] = await Promise.all([runArm(env, scenario, 'coarse'), runArm(env, scenario, 'fine')]);
  const m = facts(merged);
  const r = facts(recorded);
  const verdict = m.refused > 0 ? 'refused' : m.agrees ? 'agrees' : m.collapsed > 0 ? 'hidden' : 'diverged';
  const figures: Record<string, Figure> = {
    'drafts written': m.drafts,
    'mails received': m.mails.length,
    'different reviews received': m.distinct,
    'resends refused (422)': m.refused,
    "mail = run's draft": m.agrees,
    'run ended': m.ended,
    'DRAFT recorded first (fine): mails received': r.mails.length,
    "DRAFT recorded first (fine): mail = run's draft": r.agrees,
  };
  return {
    verdict,
    figures,
    runId: merged.obs.runId,
    ledger: merged.obs.ledger,
    durable: merged.obs.durableFinal,
    note:
      recorded.obs.status === 'completed' ? null : `the fine run ended ${recorded.obs.status}: ${recorded.obs.note}`,
  };
};
