import { MATRIX_CRASH_POINTS, type CrashPointName } from '@vendor-review/instrument/points';
import { VENDOR_SLUGS } from '@vendor-review/world';
import { seededRng, type Rng } from './rng.ts';

/**
 * The fault schedule of a campaign, generated from its seed and nothing else. Two halves:
 *
 * - per run (the same for run N of every runtime and variant): the vendor it reviews, a crash point
 *   its first worker is armed with (a runtime whose workers live per run), world faults scoped to it, and whether its approval
 *   waits until no worker is alive;
 * - strikes in time (a Poisson process per kind, at offsets from the start of the campaign; the
 *   approve-while-down strikes, which held approvals wait for, evenly spread around their mean): each
 *   strike hits every pool at once (a kill kills one worker of each pool, picked by the same
 *   number), so naive and hardened face the same schedule.
 *
 * Random instants rarely land in the few milliseconds between an effect and its record, so the
 * schedule also arms crash points (a worker's crash plan): random places in the program rather than random
 * moments, the same idea as a Jepsen nemesis picking its targets. A worker serving a queue serves
 * many runs, so its plan belongs to the process (`slot`, `incarnation`), not to a run.
 */
export const STRIKE_KINDS = [
  'kill',
  'pause',
  'postgres-restart',
  'server-restart',
  'world-burst',
  'approve-while-down',
  'partition',
] as const;
export type StrikeKind = (typeof STRIKE_KINDS)[number];

export const WORLD_FAULT_KINDS = ['429', '503', 'drop', 'slow'] as const;
export type WorldFaultKind = (typeof WORLD_FAULT_KINDS)[number];
export const WORLD_ROUTES = ['web', 'model', 'tracker', 'mail'] as const;

/** A world fault rule as the schedule draws it; the run id is added when it is installed. */
export interface WorldFault {
  route: (typeof WORLD_ROUTES)[number];
  kind: WorldFaultKind;
  /** The next `times` matching requests of the run get it. */
  times: number;
  /** For `slow`: how long the world holds the answer. */
  delayMs?: number;
}

export interface ScheduleOptions {
  seed: string;
  /** Mean milliseconds between two strikes of a kind; 0 turns the kind off. */
  gapsMs: Record<StrikeKind, number>;
  /** How long a paused worker stays frozen: longer than the lease (3 s) and the heartbeat timeout (2 s). */
  pauseMs: readonly [number, number];
  /** How long a partitioned worker stays cut off from its store and its runtime's server: as long as a pause, for the same reason. */
  cutMs: readonly [number, number];
  /** Share of runs whose first worker (per-run runtimes), and of queue worker processes, that carry a crash point. */
  armRate: number;
  /** The crash points armed, with repeats as weights. */
  points: readonly CrashPointName[];
  /** A queue worker dies at the n-th time it reaches its point, n drawn from 1 to this. */
  maxOccurrence: number;
  /** Of the armed plans, the share that freeze at their point (SIGSTOP, woken after a pause) instead of dying. */
  stopShare: number;
  /** Share of runs with world faults of their own. */
  worldFaultRate: number;
  /** Share of runs whose approval is held until the next moment no worker is alive. */
  holdApprovalRate: number;
  /** The vendors reviewed, in rotation. */
  vendors: readonly string[];
}

/**
 * Effects are where a crash costs most (a second note, a second mail), so their points weigh three
 * times the others; every other point is armed too, so the campaign also repeats reads and paid calls.
 * Only points every runtime reaches (not `mid-commit`, inside our LangGraph saver only), in the order
 * the published seeds were drawn with.
 */
export const WEIGHTED_POINTS: readonly CrashPointName[] = [
  ...MATRIX_CRASH_POINTS.filter((p) => p !== 'mid-commit'),
  'after-progress',
  'after-progress',
  'after-deliver',
  'after-deliver',
];

export const DEFAULT_SCHEDULE: Omit<ScheduleOptions, 'seed'> = {
  gapsMs: {
    kill: 10_000,
    pause: 20_000,
    'postgres-restart': 45_000,
    'server-restart': 60_000,
    'world-burst': 15_000,
    'approve-while-down': 40_000,
    partition: 20_000,
  },
  pauseMs: [4_000, 7_000],
  cutMs: [4_000, 7_000],
  armRate: 0.25,
  points: WEIGHTED_POINTS,
  maxOccurrence: 2,
  stopShare: 1 / 3,
  worldFaultRate: 0.2,
  holdApprovalRate: 0.25,
  vendors: VENDOR_SLUGS,
};

/**
 * A crash plan as the schedule arms it: `point[@n]` (the process SIGKILLs itself there) or
 * `point[@n]:stop` (it freezes there with SIGSTOP, and its pool wakes it `stopMs` later). A pause
 * at a random moment rarely lands inside a transaction or between an effect and its record; one
 * armed at a point does, every time.
 */
export interface Armed {
  crash: string;
  stopMs: number | null;
}

export interface RunPlan {
  index: number;
  vendor: string;
  /** The crash plan of the run's first worker (a runtime whose workers live per run), or null. */
  crash: string | null;
  /** For a `:stop` plan: how long the frozen worker stays frozen before its pool wakes it. */
  stopMs: number | null;
  faults: WorldFault[];
  /** The approval waits for the next approve-while-down strike: sent while no worker is alive. */
  holdApproval: boolean;
}

export interface Strike {
  /** 1-based, in time order. */
  seq: number;
  kind: StrikeKind;
  /** Milliseconds from the start of the campaign. */
  at: number;
  /** Which live worker of each pool a kill or a pause hits: index `pick` modulo how many are alive. */
  pick: number;
  /** For a pause. */
  pauseMs?: number;
  /** For a partition: how long the worker stays cut off. */
  cutMs?: number;
  /** For a world burst: the fault every run in flight gets. */
  burst?: WorldFault;
}

function worldFault(rng: Rng): WorldFault {
  const kind = rng.pick(['429', '429', '503', '503', 'drop', 'drop', 'slow'] as const);
  return {
    route: rng.pick(WORLD_ROUTES),
    kind,
    times: rng.int(1, 2),
    ...(kind === 'slow' ? { delayMs: rng.int(500, 3_000) } : {}),
  };
}

function arm(o: ScheduleOptions, rng: Rng, occurrence: number): Armed | null {
  if (!rng.chance(o.armRate)) return null;
  const point = `${rng.pick(o.points)}${occurrence > 1 ? `@${occurrence}` : ''}`;
  // Drawn whether or not it is used, so the draws after it do not depend on the share.
  const stopMs = rng.int(o.pauseMs[0], o.pauseMs[1]);
  return rng.chance(o.stopShare) ? { crash: `${point}:stop`, stopMs } : { crash: point, stopMs: null };
}

/** Run `index` of the campaign: the same plan in every runtime and variant. */
export function runPlan(o: ScheduleOptions, index: number): RunPlan {
  const rng = seededRng(o.seed, `run/${index}`);
  const vendor = o.vendors[index % o.vendors.length]!;
  const armed = arm(o, rng, 1);
  const faults = rng.chance(o.worldFaultRate) ? [worldFault(rng)] : [];
  return {
    index,
    vendor,
    crash: armed?.crash ?? null,
    stopMs: armed?.stopMs ?? null,
    faults,
    holdApproval: rng.chance(o.holdApprovalRate),
  };
}

/**
 * The crash plan of a queue worker process: slot `slot`'s `incarnation`-th process (0 is the first).
 * The first incarnation is never armed: the uncrashed baselines run on it, before any strike, and
 * the campaign starts on the second (the pool is recycled in between).
 * `point@n` dies the n-th time the process reaches the point, whichever run it is serving.
 */
export function workerPlan(o: ScheduleOptions, slot: number, incarnation: number): Armed | null {
  if (incarnation === 0) return null;
  const rng = seededRng(o.seed, `worker/${slot}/${incarnation}`);
  return arm(o, rng, rng.int(1, Math.max(1, o.maxOccurrence)));
}

/** Every strike up to `horizonMs`, in time order: one Poisson process per kind, each from its own stream. */
export function strikes(o: ScheduleOptions, horizonMs: number): Strike[] {
  const all: Omit<Strike, 'seq'>[] = [];
  for (const kind of STRIKE_KINDS) {
    const gap = o.gapsMs[kind];
    if (!gap) continue;
    const rng = seededRng(o.seed, `strikes/${kind}`);
    // Runs whose approval is held wait for the next approve-while-down: its gaps are drawn evenly
    // around the mean instead of exponentially, so no run waits minutes at the gate by chance.
    const next = () => (kind === 'approve-while-down' ? gap * (0.5 + rng.next()) : rng.exponential(gap));
    for (let at = next(); at < horizonMs; at += next()) {
      const pick = rng.int(0, 1_000_000);
      all.push({
        kind,
        at: Math.round(at),
        pick,
        ...(kind === 'pause' ? { pauseMs: rng.int(o.pauseMs[0], o.pauseMs[1]) } : {}),
        ...(kind === 'partition' ? { cutMs: rng.int(o.cutMs[0], o.cutMs[1]) } : {}),
        ...(kind === 'world-burst' ? { burst: worldFault(rng) } : {}),
      });
    }
  }
  return all.sort((a, b) => a.at - b.at || a.kind.localeCompare(b.kind)).map((s, i) => ({ ...s, seq: i + 1 }));
}

/**
 * A run id that says where it belongs, so `--seed S --run ID` can find its plan again. The runtime
 * is written as its label in lower case ("lg", "tm": RuntimeInfo.label), which the registry keeps
 * apart.
 */
export function chaosRunId(seed: string, label: string, variant: string, index: number | string): string {
  const n = typeof index === 'number' ? String(index).padStart(3, '0') : index;
  return `ch${seed}-${runtimeCode(label)}-${variant === 'naive' ? 'naive' : 'hard'}-${n}`;
}

/** How a runtime's label is written in run ids. */
export const runtimeCode = (label: string) => label.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The inverse of chaosRunId (the runtime as its code); null for an id a campaign did not make. */
export function parseChaosRunId(
  id: string,
): { seed: string; runtimeCode: string; variant: 'naive' | 'hardened'; index: number } | null {
  const m = /^ch(.+)-([a-z0-9]+)-(naive|hard)-(\d+)$/.exec(id);
  if (!m) return null;
  return { seed: m[1]!, runtimeCode: m[2]!, variant: m[3] === 'naive' ? 'naive' : 'hardened', index: Number(m[4]) };
}

/** A seed is part of run ids, file names and command lines: letters, digits, `_` and `-`. */
export function isValidSeed(seed: string): boolean {
  return /^[A-Za-z0-9_-]{1,32}$/.test(seed);
}
