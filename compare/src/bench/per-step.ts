import { runPlain } from '@vendor-review/pipeline';
import { timedRun, type InProcessBench, type PerStepConfig, type TimedRun } from '@vendor-review/conformance';
import type { BenchContext } from './context.ts';
import type { Benched } from './benched.ts';
import { logicalSteps, sizedRequest } from './requests.ts';
import { round1, roundSummary, summarize, type Summary } from './stats.ts';
import type { Units } from './units.ts';

/**
 * What durability costs per step: the same review, in this process, through every configuration
 * each runtime's bench gives, against the plain runner (no durability at all) on a world that
 * answers at once. A runtime's bench gives it bare (its own graph / workflow of the review's
 * shape doing nothing), replayed (ours with its steps handing back what a real run returned: the
 * runtime carrying our state), our code on those replayed steps, and the reviews. So the cost
 * splits in three: the runtime's own, what our state adds to it, and what our layers add.
 * Configurations take turns, run by run, so a noisy moment of a shared machine falls on all of
 * them rather than on one, each round in an order shifted by one.
 */
export interface PerStepRow {
  id: string;
  runtime: string;
  mode: string;
  label: string;
  kind: 'floor' | PerStepConfig['kind'];
  /** The bare configuration this one is compared with. */
  bareId: string | null;
  /** The replayed configuration (the runtime on our data) this review is compared with. */
  replayId: string | null;
  runs: number;
  failed: number;
  failures: string[];
  runMs: Summary | null;
  perStepUs: Summary | null;
  /** Median per step minus the floor's: what durability adds (bare and replayed rows do no domain work: all of it). */
  overheadUs: number | null;
  overheadInCommits: number | null;
  /** The overhead as a multiple of each runtime's own unit, by the unit's key (`temporal:activity`). */
  overheadInUnits: Record<string, number | null>;
  /** Replayed rows: (replay − bare) ÷ bare, what carrying our state adds to the runtime's own cost. */
  stateShare: number | null;
  /** Rows the bench marks `ourCode`: (overhead − replay) ÷ replay, what our code around the runtime adds. */
  ourShare: number | null;
  /** How the findings name it, where the bench gives it a place there. */
  finding: string | null;
}

export interface PerStepSection {
  requirements: number;
  steps: number;
  pagesPerRequirement: number;
  runs: number;
  warmup: number;
  /** Each runtime's in-process worker's start, kept out of the step figures (runtimes with one). */
  workerStartMs: Record<string, number>;
  rows: PerStepRow[];
}

interface Config extends Omit<
  PerStepRow,
  | 'runs'
  | 'failed'
  | 'failures'
  | 'runMs'
  | 'perStepUs'
  | 'overheadUs'
  | 'overheadInCommits'
  | 'overheadInUnits'
  | 'stateShare'
  | 'ourShare'
> {
  ourCode: boolean;
  run: () => Promise<TimedRun>;
}

export async function measurePerStep(
  ctx: BenchContext,
  units: Units,
  sessions: { b: Benched; s: InProcessBench }[],
  floor: { name: string; title: string },
): Promise<PerStepSection> {
  const { runs, warmup } = ctx.plan.perStep;
  const requirements = ctx.plan.requirements;
  const request = sizedRequest(ctx.infra.worldUrl, requirements);
  const steps = logicalSteps(requirements);

  // The plain run's fan-out tells the bare runtimes how many FETCH siblings to start.
  let fetches = 0;
  await runPlain(request, ctx.ports, { onStep: (s) => void (s === 'FETCH' && fetches++) });
  const shape = { requirements, pages: Math.max(1, Math.round(fetches / requirements)) };

  const configs: Config[] = [
    {
      id: floor.name,
      runtime: floor.name,
      mode: 'none',
      label: `${floor.title}: the floor`,
      kind: 'floor',
      bareId: null,
      replayId: null,
      ourCode: false,
      finding: null,
      run: () =>
        timedRun(async () => ({
          ok: !(await runPlain(request, ctx.ports, { worker: 'bench' })).failed,
          id: floor.name,
        })),
    },
  ];
  for (const { b, s } of sessions) {
    if (!s.perStep) continue;
    const name = b.info.name;
    const id = (mode: string | null) => (mode === null ? null : `${name}:${mode}`);
    for (const c of await s.perStep({ request, shape }))
      configs.push({
        id: id(c.mode)!,
        runtime: name,
        mode: c.mode,
        label: c.label,
        kind: c.kind,
        bareId: id(c.bare),
        replayId: id(c.replay),
        ourCode: c.ourCode ?? false,
        finding: c.finding ?? null,
        run: c.run,
      });
  }
  const samples = new Map<string, TimedRun[]>(configs.map((c) => [c.id, []]));
  const rounds = warmup + runs;
  for (let round = 0; round < rounds; round++) {
    // Each round starts one further along: no configuration always runs first after another runtime's
    // (a connection idle for a moment answers faster than one in steady use).
    const order = configs.map((_, i) => configs[(i + round) % configs.length]!);
    for (const c of order) {
      const r = await c.run();
      if (round >= warmup) samples.get(c.id)!.push(r);
    }
    ctx.log(
      `per-step: round ${round + 1}/${rounds}${round < warmup ? ' (warm-up)' : ''}: ${configs
        .map((c) => {
          const last = samples.get(c.id)!.at(-1);
          return round < warmup || !last ? '' : `${c.id} ${last.ok ? `${Math.round(last.ms)} ms` : 'FAILED'}`;
        })
        .filter(Boolean)
        .join(' · ')}`,
    );
  }

  const base = configs.map((c) => {
    const all = samples.get(c.id)!;
    const ok = all.filter((r) => r.ok);
    return {
      c,
      all,
      runMs: summarize(ok.map((r) => r.ms)),
      perStepUs: summarize(ok.map((r) => (r.ms * 1000) / steps)),
    };
  });
  const median = (id: string | null) => base.find((b) => b.c.id === id)?.perStepUs?.median ?? null;
  const floorUs = median(floor.name);
  const commit = units.pgCommitUs.median;
  const rows: PerStepRow[] = base.map(({ c, all, runMs, perStepUs }) => {
    const own = perStepUs?.median ?? null;
    // Bare, replayed and our-code-on-replayed-steps runs do no domain work: their whole cost is overhead.
    const noWork = c.kind === 'bare' || c.kind === 'replay' || c.kind === 'ours';
    const overhead = own === null ? null : noWork ? own : floorUs === null ? null : own - floorUs;
    const share = (of: number | null, base: number | null) =>
      of === null || base === null || base <= 0 ? null : round2((of - base) / base);
    const isFloor = c.kind === 'floor';
    const none = overhead === null || isFloor;
    return {
      id: c.id,
      runtime: c.runtime,
      mode: c.mode,
      label: c.label,
      kind: c.kind,
      bareId: c.bareId,
      replayId: c.replayId,
      runs: all.length,
      failed: all.filter((r) => !r.ok).length,
      failures: [...new Set(all.filter((r) => !r.ok).map((r) => r.note ?? 'did not complete'))].slice(0, 3),
      runMs: roundSummary(runMs),
      perStepUs: roundSummary(perStepUs),
      overheadUs: none ? null : round1(overhead),
      overheadInCommits: none ? null : round2(overhead / commit),
      overheadInUnits: Object.fromEntries(
        units.own.map((u) => [u.key, none || !u.us.median ? null : round2(overhead / u.us.median)]),
      ),
      stateShare: c.kind === 'replay' ? share(overhead, median(c.bareId)) : null,
      ourShare: c.ourCode ? share(overhead, median(c.replayId)) : null,
      finding: c.finding,
    };
  });
  return {
    requirements,
    steps,
    pagesPerRequirement: shape.pages,
    runs,
    warmup,
    workerStartMs: Object.fromEntries(
      sessions.filter(({ s }) => s.workerStartMs !== null).map(({ b, s }) => [b.info.name, round1(s.workerStartMs!)]),
    ),
    rows,
  };
}

const round2 = (n: number) => Math.round(n * 100) / 100;
