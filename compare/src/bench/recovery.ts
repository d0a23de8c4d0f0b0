import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import type { RunHandle, RuntimeAdapter } from '@vendor-review/domain';
import {
  baselineConfig,
  baselineIdFor,
  cellRequest,
  computeEvidence,
  runCell,
  scenarioFor,
  type Scenario,
} from '@vendor-review/domain/conformance';
import { WorkerProcess } from '@vendor-review/domain/infra';
import {
  configureWorld,
  WORLD_DEFAULT_LATENCY,
  WORLD_LATENCY,
  WORLD_SLOW_MODEL,
  type BenchContext,
} from './context.ts';
import { roundSummary, summarize, type Summary } from './stats.ts';

/**
 * What a recovery time costs. A short lease or heartbeat timeout lets a replacement take a dead
 * worker's run sooner, and takes a live worker's run away sooner when it is only slow. Two sweeps
 * over the same settings: crash → progress across kills on a quiet machine (a real worker A killed
 * at the crash point, worker B started at once, as a supervisor would), and on a loaded machine
 * (busy-loop processes, several reviews in one worker) how often a live worker lost its work.
 */
export type Knob = 'leaseTtlMs' | 'heartbeatTimeoutMs' | 'stickyScheduleToStartMs';

export interface RecoveryPoint {
  runtime: 'langgraph' | 'temporal';
  knob: Knob;
  value: number;
  crashPoint: 'after-model' | 'awaiting-approval';
  kills: number;
  recoveryMs: Summary | null;
  failed: string[];
}

export interface TakeoverPoint {
  runtime: 'langgraph' | 'temporal';
  knob: Knob;
  value: number;
  runs: number;
  /** Runs a live worker lost (LangGraph: fenced out of its lease; Temporal: an attempt timed out for want of a heartbeat). */
  lost: number;
  rate: number;
  /** Temporal: attempts the server gave up on, over all runs. */
  timedOutAttempts: number | null;
  loadAverage: number;
  failed: string[];
}

export interface RecoverySection {
  crashRequirements: number;
  burners: number;
  /** The world's latency during the kills (the other sections run with none), and during the loaded runs. */
  world: { modelLatencyMs: number; pageLatencyMs: number };
  loadedWorld: { modelLatencyMs: number; pageLatencyMs: number };
  points: RecoveryPoint[];
  takeovers: TakeoverPoint[];
}

function scenario(adapter: RuntimeAdapter, crashPoint: RecoveryPoint['crashPoint']): Scenario {
  return { ...scenarioFor(adapter, baselineConfig(adapter, 'hardened'), crashPoint), baselineId: baselineIdFor(adapter, 'hardened') };
}

async function sweepKills(
  ctx: BenchContext,
  p: { runtime: RecoveryPoint['runtime']; knob: Knob; value: number; crashPoint: RecoveryPoint['crashPoint'] },
  adapter: RuntimeAdapter,
  label: string,
): Promise<RecoveryPoint> {
  const times: number[] = [];
  const failed: string[] = [];
  const deps = { adapter, worldUrl: ctx.infra.worldUrl, request: cellRequest(ctx.infra.worldUrl), boundMs: 120_000 };
  for (let i = 0; i < ctx.plan.recovery.kills; i++) {
    const obs = await runCell(scenario(adapter, p.crashPoint), i, deps);
    const r = obs.crash ? computeEvidence(obs, null).recoveryMs : null;
    if (obs.status === 'completed' && r !== null) times.push(r);
    else failed.push(`${obs.status}: ${obs.note ?? 'no recovery measured'}`.slice(0, 200));
    ctx.log(
      `recovery: ${label} kill ${i + 1}/${ctx.plan.recovery.kills}: ${obs.status}, crash → progress ${r === null ? '—' : `${(r / 1000).toFixed(2)} s`}`,
    );
  }
  return { ...p, kills: ctx.plan.recovery.kills, recoveryMs: roundSummary(summarize(times)), failed };
}

/** Busy loops, one per slot, until stopped: the machine is loaded, the workers are alive. */
function startLoad(n: number): { stop(): void } {
  const burners: ChildProcess[] = Array.from({ length: n }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  );
  const kill = () => burners.forEach((b) => b.exitCode === null && b.kill('SIGKILL'));
  process.once('exit', kill);
  return {
    stop() {
      kill();
      process.removeListener('exit', kill);
    },
  };
}

async function loadedLangGraph(ctx: BenchContext, ttl: number): Promise<TakeoverPoint> {
  const lgb = await import('@vendor-review/langgraph/bench');
  const runs = ctx.plan.recovery.loadedRuns;
  const adapter = ctx.lg!.adapter({ leaseTtlMs: ttl });
  const created = await Promise.all(
    Array.from({ length: runs }, () =>
      lgb.createApprovedRun(ctx.lg!.pool, {
        request: cellRequest(ctx.infra.worldUrl),
        variant: 'hardened',
        durability: 'sync',
        checkpointer: 'postgres',
      }),
    ),
  );
  const template = adapter.workerSpec({ runId: created[0]!.runId } as RunHandle, { name: 'L', crashPlan: null });
  const worker = new WorkerProcess('L', { ...template, args: created.flatMap((r) => ['--run', r.runId]) });
  const life = await worker.exited;
  const { rows } = await ctx.lg!.pool.query<{ status: string }>('SELECT status FROM lg_runs WHERE run_id = ANY($1)', [
    created.map((r) => r.runId),
  ]);
  const lost = rows.filter((r) => r.status !== 'completed').length;
  const fenced = /lost the lease/.test(worker.output());
  return {
    runtime: 'langgraph',
    knob: 'leaseTtlMs',
    value: ttl,
    runs,
    lost,
    rate: lost / runs,
    timedOutAttempts: null,
    loadAverage: os.loadavg()[0]!,
    failed:
      life.exitCode === 0 || fenced
        ? []
        : [`worker exited ${life.signal ?? life.exitCode}: ${life.logTail.slice(-200)}`],
  };
}

async function loadedTemporal(ctx: BenchContext, heartbeatMs: number): Promise<TakeoverPoint> {
  const tm = await import('@vendor-review/temporal');
  const tmb = await import('@vendor-review/temporal/bench');
  const runs = ctx.plan.recovery.loadedRuns;
  const client = ctx.tm!.client;
  const adapter = await ctx.tm!.adapter({ heartbeatTimeoutMs: heartbeatMs });
  const taskQueue = `bench-load-${process.pid}-${Date.now()}`;
  const fake = { runId: 'bench', taskQueue, config: { variant: 'hardened', durability: null } } as unknown as RunHandle;
  const worker = new WorkerProcess('L', adapter.workerSpec(fake, { name: 'L', crashPlan: null }));
  const failed: string[] = [];
  let lost = 0;
  let attempts = 0;
  try {
    await worker.waitForLine(/WORKER READY/, 120_000);
    const started = await Promise.all(
      Array.from({ length: runs }, async () => {
        const s = await tm.startRun({
          client,
          taskQueue,
          request: cellRequest(ctx.infra.worldUrl),
          variant: 'hardened',
          timeouts: { heartbeatMs },
        });
        await tm.approveRun({ client, runId: s.runId, approved: true, by: 'bench' });
        return s;
      }),
    );
    const results = await Promise.allSettled(started.map((s) => client.workflow.getHandle(s.workflowId).result()));
    for (const r of results) if (r.status === 'rejected') failed.push(String(r.reason).slice(0, 160));
    for (const s of started) {
      const h = await tmb.historyFigures(client, s.workflowId);
      attempts += h.heartbeatTimeouts;
      if (h.heartbeatTimeouts > 0) lost++;
    }
  } finally {
    await worker.stop(5000);
  }
  return {
    runtime: 'temporal',
    knob: 'heartbeatTimeoutMs',
    value: heartbeatMs,
    runs,
    lost,
    rate: lost / runs,
    timedOutAttempts: attempts,
    loadAverage: os.loadavg()[0]!,
    failed,
  };
}

export async function measureRecovery(ctx: BenchContext): Promise<RecoverySection> {
  // Steps that take as long as the world's model does by default: a lease or a heartbeat must
  // outlast them, which a world answering at once would never test.
  await configureWorld(ctx.infra.worldUrl, WORLD_DEFAULT_LATENCY);
  try {
    return await sweep(ctx);
  } finally {
    await configureWorld(ctx.infra.worldUrl, WORLD_LATENCY);
  }
}

async function sweep(ctx: BenchContext): Promise<RecoverySection> {
  const r = ctx.plan.recovery;
  const points: RecoveryPoint[] = [];
  if (ctx.lg)
    for (const ttl of r.leaseTtlMs)
      points.push(
        await sweepKills(
          ctx,
          { runtime: 'langgraph', knob: 'leaseTtlMs', value: ttl, crashPoint: 'after-model' },
          ctx.lg.adapter({ leaseTtlMs: ttl }),
          `LangGraph hardened, lease ${ttl / 1000} s, after-model`,
        ),
      );
  if (ctx.tm) {
    for (const hb of r.heartbeatMs)
      points.push(
        await sweepKills(
          ctx,
          { runtime: 'temporal', knob: 'heartbeatTimeoutMs', value: hb, crashPoint: 'after-model' },
          await ctx.tm.adapter({ heartbeatTimeoutMs: hb }),
          `Temporal hardened, heartbeat ${hb / 1000} s, after-model`,
        ),
      );
    for (const sticky of r.stickyMs)
      points.push(
        await sweepKills(
          ctx,
          { runtime: 'temporal', knob: 'stickyScheduleToStartMs', value: sticky, crashPoint: 'awaiting-approval' },
          await ctx.tm.adapter({ stickyScheduleToStartMs: sticky }),
          `Temporal hardened, sticky schedule-to-start ${sticky / 1000} s, awaiting-approval`,
        ),
      );
  }

  const takeovers: TakeoverPoint[] = [];
  const settings = [
    ...(ctx.lg ? r.loadedLeaseTtlMs.map((v) => ['langgraph', v] as const) : []),
    ...(ctx.tm ? r.loadedHeartbeatMs.map((v) => ['temporal', v] as const) : []),
  ];
  if (settings.length) {
    ctx.log(
      `recovery: loading the machine with ${r.burners} busy-loop process(es), the model answering in ${WORLD_SLOW_MODEL.modelLatencyMs} ms…`,
    );
    await configureWorld(ctx.infra.worldUrl, WORLD_SLOW_MODEL);
    const load = startLoad(r.burners);
    try {
      for (const [runtime, value] of settings) {
        const t = runtime === 'langgraph' ? await loadedLangGraph(ctx, value) : await loadedTemporal(ctx, value);
        takeovers.push(t);
        ctx.log(
          `recovery: loaded, ${runtime} ${t.knob} ${value / 1000} s: ${t.lost}/${t.runs} run(s) lost by a live worker (load average ${t.loadAverage.toFixed(1)})`,
        );
      }
    } finally {
      load.stop();
      await configureWorld(ctx.infra.worldUrl, WORLD_DEFAULT_LATENCY);
    }
  }
  return {
    crashRequirements: cellRequest(ctx.infra.worldUrl).requirements.length,
    burners: r.burners,
    world: WORLD_DEFAULT_LATENCY,
    loadedWorld: WORLD_SLOW_MODEL,
    points,
    takeovers,
  };
}
