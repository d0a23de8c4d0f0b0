/**
 * Running one cell, or one production hazard, on infrastructure already up (infra.ts brings it up):
 * through its runtime's adapter, and a row even when it cannot run (no such runtime, an error
 * starting it), saying why.
 */
import {
  errorObservation,
  hazardHarm,
  RESTARTS_A_SERVER,
  runCell,
  runHazard,
  type CellObservation,
  type HazardObservation,
  type HazardScenario,
  type Scenario,
  type SpanLock,
} from '@vendor-review/conformance';
import type { ReviewRequestInput } from '@vendor-review/pipeline';
import type { Infra } from './infra.ts';

/** What every cell and hazard run is given: the review to run, how long a phase may wait. */
export interface RunSettings {
  request: ReviewRequestInput;
  boundMs: number;
  /** The window suite's: a measured worker A's δ with every other worker frozen (conformance window/alone.ts). */
  spans?: SpanLock;
}

/** One cell on this infrastructure, through its runtime's adapter. */
export async function runCellOn(
  infra: Pick<Infra, 'runtimes' | 'worldUrl'>,
  scenario: Scenario,
  repetition: number,
  o: RunSettings,
): Promise<CellObservation> {
  const adapter = infra.runtimes.get(scenario.runtime)?.adapter;
  if (!adapter) return errorObservation(scenario, repetition, `no ${scenario.runtime} runtime available`);
  try {
    return await runCell(scenario, repetition, {
      adapter,
      worldUrl: infra.worldUrl,
      request: o.request,
      boundMs: o.boundMs,
      ...(o.spans ? { spans: o.spans } : {}),
    });
  } catch (err) {
    return errorObservation(
      scenario,
      repetition,
      `the cell could not run: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

/**
 * One production hazard on this infrastructure; those that restart a server on the servers of
 * their own (infra.restarting) when there are some.
 */
export async function runHazardOn(
  infra: Pick<Infra, 'runtimes' | 'worldUrl' | 'hazardInfra' | 'restarting'>,
  h: HazardScenario,
  repetition: number,
  o: RunSettings,
): Promise<HazardObservation> {
  const on = (RESTARTS_A_SERVER.has(h.hazard) ? infra.restarting : null) ?? infra;
  const adapter = on.runtimes.get(h.runtime)?.adapter;
  if (adapter)
    return runHazard(
      h,
      { adapter, worldUrl: infra.worldUrl, request: o.request, boundMs: o.boundMs, infra: on.hazardInfra },
      repetition,
    );
  return {
    scenario: h,
    repetition,
    status: 'error',
    verdict: null,
    figures: {},
    runId: null,
    note: `no ${h.runtime} runtime available`,
    startedAt: Date.now(),
    endedAt: Date.now(),
    ledger: [],
    durable: null,
    harm: hazardHarm([]),
  };
}
