import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewRequestInput } from '@vendor-review/pipeline';
import type { RuntimeAdapter } from './adapter.ts';
import { errorObservation, runCell } from './cell.ts';
import { checkApproverInbox, checkCrashCell, judgesApproverInbox } from './crash-check.ts';
import { jobsFor, runMatrix } from './matrix.ts';
import type { CellObservation } from './observation.ts';
import type { Scenario } from './scenarios.ts';

/**
 * The crash conformance suite, in the manner of LangGraph's checkpoint-validation package: one
 * spec, run against every runtime. Each implementation's e2e test calls it with its adapter; the
 * compare harness's e2e test calls it with the cells `pnpm compare` ran. Every crashed cell is held
 * to what its crash point must show (crash-expectations.ts), judged from the world's ledger and
 * the durable record only.
 */
export interface CrashSpecOptions {
  /** The describe() title, e.g. "LangGraph". */
  name: string;
  /** The cells to run; the baselines they are judged against must be among them. */
  scenarios: Scenario[];
  /** Runs every cell (once, before the checks) and returns what each saw. */
  run(scenarios: Scenario[]): Promise<CellObservation[]>;
  /** Called after the checks, e.g. to stop servers. */
  teardown?(): Promise<void>;
  /** How long running all cells may take. Default: 20 minutes. */
  timeoutMs?: number;
}

/** The cells a spec ran, for a runtime's own extra checks (what each durability mode keeps…). */
export interface CrashSpecCells {
  get(scenarioId: string): CellObservation;
  all(): CellObservation[];
}

/** Runs the cells through a runtime adapter, a few at a time: the usual `run` of a CrashSpecOptions. */
export function runThroughAdapter(
  env: () => { adapter: RuntimeAdapter; worldUrl: string; request: ReviewRequestInput },
  opts: { concurrency?: number; boundMs?: number } = {},
): (scenarios: Scenario[]) => Promise<CellObservation[]> {
  return (scenarios) => {
    const { adapter, worldUrl, request } = env();
    return runMatrix(jobsFor(scenarios, 1), {
      concurrency: opts.concurrency ?? 4,
      run: ({ scenario, repetition }) =>
        runCell(scenario, repetition, { adapter, worldUrl, request, boundMs: opts.boundMs ?? 120_000 }).catch(
          (err: unknown) => errorObservation(scenario, repetition, (err as Error).message),
        ),
    });
  };
}

export function crashSpec(o: CrashSpecOptions): CrashSpecCells {
  const cells = new Map<string, CellObservation>();
  const get = (id: string) => {
    const c = cells.get(id);
    if (!c) throw new Error(`no cell ${id} was run (ran: ${[...cells.keys()].join(', ') || 'none'})`);
    return c;
  };

  describe(`crash conformance: ${o.name}`, () => {
    beforeAll(
      async () => {
        for (const obs of await o.run(o.scenarios)) cells.set(obs.scenario.id, obs);
      },
      o.timeoutMs ?? 20 * 60_000,
    );
    afterAll(async () => {
      await o.teardown?.();
    });

    const baselines = o.scenarios.filter((s) => s.crashPoint === null);
    it.each(baselines.map((s) => [s.id, s] as const))('%s: completes, every operation once, one mail', (_id, s) => {
      const obs = get(s.id);
      expect(obs.status, obs.note ?? '').toBe('completed');
      const mails = obs.ledger.filter((e) => e.kind === 'mail' && e.outcome === 'ok');
      expect(mails).toHaveLength(1);
      expect(obs.ledger.filter((e) => e.kind === 'model').length).toBeGreaterThan(0);
    });

    const crashed = o.scenarios.filter((s) => s.crashPoint !== null);
    it.each(crashed.map((s) => [s.id, s] as const))('%s: shows what its crash point must show', (_id, s) => {
      const obs = get(s.id);
      const baseline = cells.get(s.baselineId) ?? null;
      const { violations, expectation } = checkCrashCell(obs, baseline);
      const context = [
        expectation.why && `(deviation: ${expectation.why})`,
        ...obs.workers.map((w) => `--- worker ${w.name} ---\n${w.logTail}`),
      ]
        .filter(Boolean)
        .join('\n');
      expect(violations, context).toEqual([]);
    });

    // Where each runtime's unit of replay lies, shown by the approver's inbox: uncrashed, and killed while waiting.
    const asked = o.scenarios.filter(judgesApproverInbox);
    it.each(asked.map((s) => [s.id, s] as const))('%s: the approver holds what its unit of replay leaves', (_id, s) => {
      const obs = get(s.id);
      expect(obs.status, obs.note ?? '').toBe('completed');
      expect(checkApproverInbox(obs)).toEqual([]);
    });
  });

  return { get, all: () => [...cells.values()] };
}
