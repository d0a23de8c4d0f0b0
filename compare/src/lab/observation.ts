import { createHash } from 'node:crypto';
import path from 'node:path';
import type { RunView } from '@vendor-review/pipeline';
import type { CrashLine, CrashPointName } from '@vendor-review/instrument';
import type { RuntimeAdapter } from '@vendor-review/conformance';
import { runCell, scenarioFor, type CellObservation, type CellStatus, type Scenario } from '@vendor-review/conformance';
import { worldClient } from '@vendor-review/world';
import { describeConfig } from './config.ts';
import { files, readJson, writeJson } from './state.ts';
import { readApprovals, readAtCrash, readLives, type LabRun } from './runs.ts';

/**
 * A run crashed by hand, as the observation a `pnpm compare` cell makes of its run: the world's
 * ledger, the durable record at the crash (read by the lab worker while nothing was alive) and now,
 * the worker processes' lives, the approvals. Judged by the conformance evidence functions against
 * an uncrashed baseline of the same review, so the lab says what compare says, in its words.
 */

/**
 * Where the worker died when a person killed it. Not a point of the catalogue (no plan put it
 * there): the evidence functions only ask whether there was a crash, and when.
 */
export const BY_HAND = 'by hand' as CrashPointName;

function cellStatus(view: RunView): CellStatus {
  if (view.status === 'completed') return 'completed';
  if (view.status === 'failed') return 'failed';
  if (view.status === 'not-found') return 'lost';
  return 'stuck'; // not finished (yet): only the runtime's own status is shown for it
}

export interface LabObservation {
  obs: CellObservation;
  view: RunView;
}

export async function observeLabRun(
  dir: string,
  run: LabRun,
  adapter: RuntimeAdapter,
  worldUrl: string,
): Promise<LabObservation> {
  const h = run.handle;
  const lives = readLives(dir, h.runId);
  // The first worker a signal ended is the crash; whoever ran the run after it is the resumer.
  const killed = lives.find((l) => l.signal !== null);
  const crash: CrashLine | null = killed
    ? {
        point: BY_HAND,
        occurrence: 1,
        action: 'kill',
        pid: killed.pid ?? 0,
        at: killed.exitedAt ?? Date.now(),
        detail: `${killed.signal}, by hand`,
      }
    : null;
  const [ledger, durableFinal, view] = await Promise.all([
    worldClient(worldUrl).ledger({ runId: h.runId }),
    adapter.durableRecord(h).catch(() => null),
    adapter.inspect(h).catch(() => adapter.status(h)),
  ]);
  const scenario: Scenario = scenarioFor(adapter, h.config, crash ? BY_HAND : null);
  const obs: CellObservation = {
    scenario,
    repetition: 0,
    runId: h.runId,
    runtimeIds: h.runtimeIds,
    link: h.link,
    durability: h.durability,
    status: cellStatus(view),
    note: view.reason ?? null,
    startedAt: run.createdAt,
    endedAt: Date.now(),
    crash,
    workers: lives,
    ledger: ledger.filter((e) => e.runId === h.runId),
    // Without a snapshot (its lab worker was killed too) the final record stands in: the evidence
    // keeps only the marks written before the crash.
    durableAtCrash: crash ? (readAtCrash(dir, h.runId) ?? durableFinal) : null,
    durableFinal,
    finalState: view.state,
    approvals: readApprovals(dir, h.runId).map((a) => ({ at: a.at, aliveWorker: a.aliveWorker, decision: a.decision })),
  };
  return { obs, view };
}

/**
 * The uncrashed run a lab run is compared with: the same review in the same configuration, run
 * once by the conformance harness's own baseline cell (worker A to the end, approved), kept for
 * later runs of the same review. A baseline that did not complete is returned but not kept.
 */
export async function baselineFor(
  dir: string,
  run: LabRun,
  adapter: RuntimeAdapter,
  worldUrl: string,
  log: (line: string) => void,
): Promise<CellObservation> {
  const h = run.handle;
  const key = createHash('sha256')
    .update(JSON.stringify([run.runtime, h.config, run.request]))
    .digest('hex')
    .slice(0, 16);
  const file = path.join(files(dir).baselines, `${key}.json`);
  const kept = readJson<CellObservation>(file);
  if (kept) return kept;
  log(
    `no uncrashed ${run.runtime} ${describeConfig(h.config)} run of this review yet: running one now to compare with, as pnpm compare does (one whole run)…`,
  );
  const scenario: Scenario = scenarioFor(adapter, h.config, null);
  const obs = await runCell(scenario, 0, { adapter, worldUrl, request: run.request, boundMs: 300_000 });
  if (obs.status === 'completed') writeJson(file, obs);
  return obs;
}
