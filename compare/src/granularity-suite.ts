import type { Granularity, Variant, ReviewRequestInput } from '@vendor-review/pipeline';
import type { RuntimeInfo } from '@vendor-review/conformance';
import {
  CELL_REQUIREMENTS,
  granularityCatalogue,
  jobsFor,
  measureGranularityCell,
  runMatrix,
  type CellObservation,
  type GranularityScenario,
  type MatrixJob,
} from '@vendor-review/conformance';
import { runCellOn, type Infra } from './infra.ts';
import type { Progress } from './progress.ts';
import { ms, pointLabel, repeatedText } from './report/granularity-rows.ts';
import { seconds } from './table.ts';

/**
 * `--suite granularity`: every granularity each runtime offers, uncrashed and crashed early and
 * late, through the same cell runner as the crash suite. The uncrashed runs are the cost of the
 * boundaries, timed from the world's ledger, so they run one at a time before anything else shares
 * the machine (`repeat` times each, the table shows the median); the crashed runs then go
 * `concurrency` at a time, their figures do not depend on the load.
 */
export function granularityScenarios(
  infos: readonly RuntimeInfo[],
  sel: { variants?: readonly Variant[] | undefined; granularities?: readonly Granularity[] | undefined },
): GranularityScenario[] {
  return granularityCatalogue(infos, {
    requirements: CELL_REQUIREMENTS,
    ...(sel.variants ? { variants: sel.variants } : {}),
    ...(sel.granularities ? { granularities: sel.granularities } : {}),
  });
}

export async function runGranularitySuite(o: {
  scenarios: GranularityScenario[];
  infra: Infra;
  request: ReviewRequestInput;
  repeat: number;
  concurrency: number;
  boundMs: number;
  progress: Progress;
  labelOf: (runtime: string) => string;
}): Promise<CellObservation[]> {
  const label = (s: GranularityScenario, repetition: number) =>
    `${pointLabel({ runtimeLabel: o.labelOf(s.runtime), granularity: s.granularity })} ${s.crash ?? 'uncrashed'}${repetition ? ` #${repetition + 1}` : ''}`;
  const done: CellObservation[] = [];
  const run = async ({ scenario, repetition }: MatrixJob): Promise<CellObservation> => {
    const s = scenario as GranularityScenario;
    const id = `granularity ${s.id}#${repetition}`;
    o.progress.started(id, label(s, repetition));
    const obs = await runCellOn(o.infra, s, repetition, { request: o.request, boundMs: o.boundMs });
    o.progress.finished(id);
    done.push(obs);
    const base = done.find((x) => x.scenario.id === s.baselineId && x.status === 'completed') ?? null;
    const f = measureGranularityCell(obs, s.crash ? base : null);
    const facts = s.crash
      ? `repeated ${repeatedText({ status: obs.status, repeatedByKind: f.repeatedByKind })} · recovery ${seconds(f.recoveryMs)}`
      : `${f.durableRecords ?? '?'} durable records · overhead ${ms(f.overheadMs)}`;
    o.progress.log(
      `[granularity] ${obs.status === 'completed' ? '✓' : '✗'} ${label(s, repetition).padEnd(34)} ${obs.status.padEnd(9)} ${seconds(obs.endedAt - obs.startedAt).padStart(7)} · ${facts}${obs.note && obs.status !== 'completed' ? ` · ${obs.note.slice(0, 160)}` : ''}`,
    );
    return obs;
  };
  const uncrashed = o.scenarios.filter((s) => s.crash === null);
  const crashed = o.scenarios.filter((s) => s.crash !== null);
  const quiet = await runMatrix(jobsFor(uncrashed, o.repeat), { concurrency: 1, run });
  const busy = await runMatrix(jobsFor(crashed, 1), { concurrency: o.concurrency, run });
  return [...quiet, ...busy];
}
