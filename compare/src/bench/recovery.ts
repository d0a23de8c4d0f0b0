import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import type { CrashPointName } from '@vendor-review/instrument';
import type { RuntimeAdapter } from '@vendor-review/conformance';
import {
  baselineConfig,
  baselineIdFor,
  cellRequest,
  computeEvidence,
  runCell,
  scenarioFor,
  type RecoveryKnob,
  type Scenario,
  type StartedRuntime,
} from '@vendor-review/conformance';
import {
  configureWorld,
  WORLD_DEFAULT_LATENCY,
  WORLD_LATENCY,
  WORLD_SLOW_MODEL,
  type BenchContext,
} from './context.ts';
import type { Benched } from './benched.ts';
import { roundSummary, summarize, type Summary } from './stats.ts';

/**
 * What a recovery time costs, over the settings each runtime's bench names (its knobs). A short
 * lease or heartbeat timeout lets a replacement take a dead
 * worker's run sooner, and takes a live worker's run away sooner when it is only slow. Two sweeps
 * over the same settings: crash → progress across kills on a quiet machine (a real worker A killed
 * at the crash point, worker B started at once, as a supervisor would), and on a loaded machine
 * (busy-loop processes, several reviews in one worker) how often a live worker lost its work.
 */
export interface RecoveryPoint {
  runtime: string;
  /** The `RuntimeEnv.tuning` name swept (the bench's knob). */
  knob: string;
  value: number;
  crashPoint: CrashPointName;
  kills: number;
  recoveryMs: Summary | null;
  failed: string[];
}

export interface TakeoverPoint {
  runtime: string;
  knob: string;
  value: number;
  runs: number;
  /** Runs a live worker lost, as its bench reads it (LangGraph: fenced out of its lease; Temporal: an attempt timed out for want of a heartbeat). */
  lost: number;
  rate: number;
  /** Attempts the runtime gave up on, over all runs, where it counts them (Temporal: for want of a heartbeat). */
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
  return {
    ...scenarioFor(adapter, baselineConfig(adapter, 'hardened'), crashPoint),
    baselineId: baselineIdFor(adapter, 'hardened'),
  };
}

async function sweepKills(
  ctx: BenchContext,
  p: Pick<RecoveryPoint, 'runtime' | 'knob' | 'value' | 'crashPoint'>,
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

/** Each runtime's module started with one knob set (its other settings as they are). */
async function tuned(ctx: BenchContext, b: Benched, knob: RecoveryKnob, value: number): Promise<StartedRuntime> {
  const { worldUrl, databaseUrl, servers } = ctx.env;
  return b.module.start({ worldUrl, databaseUrl, servers, tuning: { [knob.name]: value } });
}

async function sweep(ctx: BenchContext): Promise<RecoverySection> {
  const r = ctx.plan.recovery;
  const preset = ctx.plan.preset;
  const swept = ctx.benched.flatMap((b) => (b.bench.recovery ? [{ b, recovery: b.bench.recovery }] : []));
  const points: RecoveryPoint[] = [];
  for (const { b, recovery } of swept)
    for (const knob of recovery.knobs)
      for (const value of knob.values[preset]) {
        const started = await tuned(ctx, b, knob, value);
        try {
          points.push(
            await sweepKills(
              ctx,
              { runtime: b.info.name, knob: knob.name, value, crashPoint: knob.crashPoint },
              started.adapter,
              `${b.info.title} hardened, ${knob.label} ${value / 1000} s, ${knob.crashPoint}`,
            ),
          );
        } finally {
          await started.adapter.close().catch(() => undefined);
        }
      }

  const takeovers: TakeoverPoint[] = [];
  const settings = swept.flatMap(({ b, recovery }) =>
    recovery.loaded
      ? recovery.knobs.flatMap((knob) =>
          knob.loaded[preset].map((value) => ({ b, loaded: recovery.loaded!, knob, value })),
        )
      : [],
  );
  if (settings.length) {
    ctx.log(
      `recovery: loading the machine with ${r.burners} busy-loop process(es), the model answering in ${WORLD_SLOW_MODEL.modelLatencyMs} ms…`,
    );
    await configureWorld(ctx.infra.worldUrl, WORLD_SLOW_MODEL);
    const load = startLoad(r.burners);
    try {
      for (const { b, loaded, knob, value } of settings) {
        const started = await tuned(ctx, b, knob, value);
        try {
          const runs = r.loadedRuns;
          const o = await loaded({
            env: ctx.env,
            started,
            knob: knob.name,
            value,
            runs,
            request: cellRequest(ctx.infra.worldUrl),
          });
          const t: TakeoverPoint = {
            runtime: b.info.name,
            knob: knob.name,
            value,
            runs,
            lost: o.lost,
            rate: o.lost / runs,
            timedOutAttempts: o.timedOutAttempts,
            loadAverage: os.loadavg()[0]!,
            failed: o.failed,
          };
          takeovers.push(t);
          ctx.log(
            `recovery: loaded, ${t.runtime} ${t.knob} ${value / 1000} s: ${t.lost}/${t.runs} run(s) lost by a live worker (load average ${t.loadAverage.toFixed(1)})`,
          );
        } finally {
          await started.adapter.close().catch(() => undefined);
        }
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
