import type { Durability, ReviewRequestInput, Variant } from '@vendor-review/domain';
import type { BenchContext } from './context.ts';
import {
  bareGraphRun,
  bareWorkflowRun,
  langGraphRun,
  plainRun,
  recordLangGraphSteps,
  replayGraphRun,
  temporalRun,
  type InProcessRun,
} from './in-process.ts';
import { logicalSteps, sizedRequest } from './requests.ts';
import { round1, roundSummary, summarize, type Summary } from './stats.ts';
import type { Units } from './units.ts';

/**
 * What durability costs per step: the same review, in this process, through every runtime and
 * mode, against the plain runner (no durability at all) on a world that answers at once. Each
 * runtime also runs twice more without our code: bare (a graph / workflow of the review's shape
 * whose steps do nothing and carry nothing: bare-graph.ts, bare-workflow.ts) and replayed (our
 * graph / workflow whose steps hand back what a real run returned: the runtime carrying our
 * state, with no domain work and none of our code around it). So the cost splits in three: the
 * runtime's own, what our state adds to it, and what our layers add (the review less the floor
 * less the replay). Configurations take turns, run by run, so a noisy moment of a shared machine
 * falls on all of them rather than on one, each round in an order shifted by one.
 */
export interface PerStepRow {
  id: string;
  runtime: 'plain' | 'langgraph' | 'temporal';
  mode: string;
  label: string;
  kind: 'floor' | 'bare' | 'replay' | 'ours' | 'review';
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
  overheadInActivities: number | null;
  /** Replayed rows: (replay − bare) ÷ bare, what carrying our state adds to the runtime's own cost. */
  stateShare: number | null;
  /**
   * What our code around the runtime adds to what the runtime costs for our data: LangGraph,
   * (ours − replay) ÷ replay, both on the recorded steps (no domain work in either); Temporal,
   * (review − floor − replay) ÷ replay (its activities cannot run recorded steps inside our wrappers).
   */
  ourShare: number | null;
}

export interface PerStepSection {
  requirements: number;
  steps: number;
  pagesPerRequirement: number;
  runs: number;
  warmup: number;
  /** The in-process Temporal worker's start, kept out of the step figures. */
  temporalWorkerStartMs: number | null;
  rows: PerStepRow[];
}

interface Config {
  id: string;
  runtime: PerStepRow['runtime'];
  mode: string;
  label: string;
  kind: PerStepRow['kind'];
  bareId: string | null;
  replayId: string | null;
  run: () => Promise<InProcessRun>;
}

type ReplaySteps = Awaited<ReturnType<typeof recordLangGraphSteps>>;

function langGraphConfigs(
  ctx: BenchContext,
  request: ReviewRequestInput,
  shape: BareShape,
  replaySteps: ReplaySteps,
): Config[] {
  const modes: { mode: string; saver: 'memory' | 'postgres'; durability: Durability; variant: Variant }[] = [
    { mode: 'memory', saver: 'memory', durability: 'sync', variant: 'naive' },
    { mode: 'exit', saver: 'postgres', durability: 'exit', variant: 'naive' },
    { mode: 'async', saver: 'postgres', durability: 'async', variant: 'naive' },
    { mode: 'sync', saver: 'postgres', durability: 'sync', variant: 'naive' },
  ];
  const out: Config[] = [];
  for (const m of modes) {
    const saverName = m.saver === 'memory' ? 'MemorySaver' : `PostgresSaver ${m.durability}`;
    const bareId = `langgraph:bare-${m.mode}`;
    const replayId = `langgraph:replay-${m.mode}`;
    out.push(
      {
        id: bareId,
        runtime: 'langgraph',
        mode: `bare-${m.mode}`,
        label: `LangGraph bare, ${saverName}`,
        kind: 'bare',
        bareId: null,
        replayId: null,
        run: () => bareGraphRun(ctx, { saver: m.saver, durability: m.durability, ...shape }),
      },
      {
        id: replayId,
        runtime: 'langgraph',
        mode: `replay-${m.mode}`,
        label: `LangGraph on our state, ${saverName}`,
        kind: 'replay',
        bareId,
        replayId: null,
        run: () => replayGraphRun(ctx, request, { saver: m.saver, durability: m.durability, steps: replaySteps }),
      },
      {
        id: `langgraph:ours-${m.mode}`,
        runtime: 'langgraph',
        mode: `ours-${m.mode}`,
        label: `LangGraph naive, ${m.saver === 'memory' ? 'MemorySaver' : `ReviewSaver ${m.durability}`}, steps replayed`,
        kind: 'ours',
        bareId,
        replayId,
        run: () => langGraphRun(ctx, request, m, replaySteps),
      },
      {
        id: `langgraph:${m.mode}`,
        runtime: 'langgraph',
        mode: m.mode,
        label: `LangGraph naive, ${m.saver === 'memory' ? 'MemorySaver' : `ReviewSaver ${m.durability}`}`,
        kind: 'review',
        bareId,
        replayId: `langgraph:ours-${m.mode}`,
        run: () => langGraphRun(ctx, request, m),
      },
    );
  }
  const hardened = { saver: 'postgres', durability: 'sync', variant: 'hardened' } as const;
  out.push(
    {
      id: 'langgraph:ours-hardened',
      runtime: 'langgraph',
      mode: 'ours-hardened',
      label: 'LangGraph hardened, steps replayed',
      kind: 'ours',
      bareId: 'langgraph:bare-sync',
      replayId: 'langgraph:replay-sync',
      run: () => langGraphRun(ctx, request, hardened, replaySteps),
    },
    {
      id: 'langgraph:hardened',
      runtime: 'langgraph',
      mode: 'hardened',
      label: 'LangGraph hardened (sync, lease + fence, provenance, outbox)',
      kind: 'review',
      bareId: 'langgraph:bare-sync',
      replayId: 'langgraph:ours-hardened',
      run: () => langGraphRun(ctx, request, hardened),
    },
  );
  return out;
}

function temporalConfigs(
  ctx: BenchContext,
  request: ReviewRequestInput,
  shape: BareShape,
  queues: { bench: string; replay: string | null },
): Config[] {
  const out: Config[] = [
    {
      id: 'temporal:bare',
      runtime: 'temporal',
      mode: 'bare',
      label: 'Temporal bare (no-op activities)',
      kind: 'bare',
      bareId: null,
      replayId: null,
      run: () => bareWorkflowRun(ctx, queues.bench, shape),
    },
  ];
  for (const variant of ['naive', 'hardened'] as const) {
    const replay = queues.replay;
    if (replay)
      out.push({
        id: `temporal:replay-${variant}`,
        runtime: 'temporal',
        mode: `replay-${variant}`,
        label: `Temporal on our ${variant === 'naive' ? 'whole-state' : 'sliced'} arguments (activities replayed)`,
        kind: 'replay',
        bareId: 'temporal:bare',
        replayId: null,
        run: () => temporalRun(ctx, replay, request, variant),
      });
    out.push({
      id: `temporal:${variant}`,
      runtime: 'temporal',
      mode: variant,
      label:
        variant === 'naive'
          ? 'Temporal naive (whole state per activity)'
          : 'Temporal hardened (state slices, outbox, capped retries)',
      kind: 'review',
      bareId: 'temporal:bare',
      replayId: replay ? `temporal:replay-${variant}` : null,
      run: () => temporalRun(ctx, queues.bench, request, variant),
    });
  }
  return out;
}

interface BareShape {
  requirements: number;
  pages: number;
}

export async function measurePerStep(
  ctx: BenchContext,
  units: Units,
  temporal: { taskQueue: string; startMs: number } | null,
  replayQueue: string | null,
): Promise<PerStepSection> {
  const { runs, warmup } = ctx.plan.perStep;
  const requirements = ctx.plan.requirements;
  const request = sizedRequest(ctx.infra.worldUrl, requirements);
  const steps = logicalSteps(requirements);

  // The plain run's fan-out tells the bare runtimes how many FETCH siblings to start.
  const { runPlain } = await import('@vendor-review/domain');
  let fetches = 0;
  await runPlain(request, ctx.ports, { onStep: (s) => void (s === 'FETCH' && fetches++) });
  const shape: BareShape = { requirements, pages: Math.max(1, Math.round(fetches / requirements)) };

  const replaySteps = ctx.lg ? await recordLangGraphSteps(ctx, request) : null;
  const configs: Config[] = [
    {
      id: 'plain',
      runtime: 'plain',
      mode: 'none',
      label: 'plain runner (no durability): the floor',
      kind: 'floor',
      bareId: null,
      replayId: null,
      run: () => plainRun(ctx, request),
    },
    ...(ctx.lg && replaySteps ? langGraphConfigs(ctx, request, shape, replaySteps) : []),
    ...(ctx.tm && temporal
      ? temporalConfigs(ctx, request, shape, { bench: temporal.taskQueue, replay: replayQueue })
      : []),
  ];
  const samples = new Map<string, InProcessRun[]>(configs.map((c) => [c.id, []]));
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
  const floor = median('plain');
  const commit = units.pgCommitUs.median;
  const activity = units.temporalActivityUs?.median ?? null;
  const rows: PerStepRow[] = base.map(({ c, all, runMs, perStepUs }) => {
    const own = perStepUs?.median ?? null;
    // Bare, replayed and our-code-on-replayed-steps runs do no domain work: their whole cost is overhead.
    const noWork = c.kind === 'bare' || c.kind === 'replay' || c.kind === 'ours';
    const overhead = own === null ? null : noWork ? own : floor === null ? null : own - floor;
    const share = (of: number | null, base: number | null) =>
      of === null || base === null || base <= 0 ? null : round2((of - base) / base);
    const isFloor = c.kind === 'floor';
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
      overheadUs: overhead === null || isFloor ? null : round1(overhead),
      overheadInCommits: overhead === null || isFloor ? null : round2(overhead / commit),
      overheadInActivities: overhead === null || isFloor || !activity ? null : round2(overhead / activity),
      stateShare: c.kind === 'replay' ? share(overhead, median(c.bareId)) : null,
      ourShare:
        c.kind === 'ours' || (c.kind === 'review' && c.runtime === 'temporal')
          ? share(overhead, median(c.replayId))
          : null,
    };
  });
  return {
    requirements,
    steps,
    pagesPerRequirement: shape.pages,
    runs,
    warmup,
    temporalWorkerStartMs: temporal ? round1(temporal.startMs) : null,
    rows,
  };
}

const round2 = (n: number) => Math.round(n * 100) / 100;
