/**
 * The crash hook the steps call: named places where a worker can be made to die (or freeze, or be
 * asked to stop), the same names in every runtime. What each point means and what a crash there
 * must show is the catalogue's (conformance: catalogue/crash-points.ts, crash-rules.ts).
 * A plan is a comma-separated list of `name`, `name@n` (act at the n-th time the point is
 * reached in this process; default 1), `+ms` (a kill that many milliseconds later, while the step
 * goes on: the commit window) and `:kill|stop|term` (what to do there), read from
 * CRASH_PLAN. A name we do not know is an error, never a silent no-op: a typo would otherwise
 * "prove" that nothing repeats.
 */
export const CRASH_POINT_NAMES = [
  'boundary',
  'after-fetch',
  'after-model',
  'mid-model',
  'after-progress',
  'after-deliver',
  'parallel-fetch',
  'awaiting-approval',
  'first-step',
  'mid-commit',
  'before-deliver',
] as const;
export type CrashPointName = (typeof CRASH_POINT_NAMES)[number];

/**
 * The points the crash matrix and chaos arm. `first-step` belongs to the commit window suite (the
 * first checkpoint, swept over delays), where a single kill would say little; `before-deliver` is
 * where the partition hazard cuts a worker off, and a kill there would repeat nothing.
 */
export const MATRIX_CRASH_POINTS: readonly CrashPointName[] = CRASH_POINT_NAMES.filter(
  (p) => p !== 'first-step' && p !== 'before-deliver',
);

/**
 * What happens at the point: `kill` (SIGKILL, a lost machine), `stop` (SIGSTOP: the process
 * freezes itself and goes on when someone sends SIGCONT, a paused VM or a long GC pause) or `term`
 * (SIGTERM to itself, and the step goes on: a deploy or a scale-in asking the worker to stop while
 * the step is in flight, so whatever the runtime does on SIGTERM runs now; the harness gives it a
 * grace period and then SIGKILLs it). `stop` is also how a harness lines two workers up at the
 * same step before letting both go.
 */
export type CrashAction = 'kill' | 'stop' | 'term';
export const CRASH_ACTIONS: readonly CrashAction[] = ['kill', 'stop', 'term'];

/**
 * How a worker is made to leave at a crash point in the crash matrix: `kill` (SIGKILL, no warning)
 * or `term` (SIGTERM, then SIGKILL once the grace period is over: a rolling deploy, a scale-in).
 */
export type StopMode = Extract<CrashAction, 'kill' | 'term'>;
export const STOP_MODES: readonly StopMode[] = ['kill', 'term'];

/**
 * How long a worker asked to stop (SIGTERM) has before it is killed: what an orchestrator gives it
 * (Kubernetes' terminationGracePeriodSeconds, a systemd TimeoutStopSec), short enough for CI.
 * A runtime's own drain must fit inside it, with room to close its connections and exit.
 */
export const STOP_GRACE_MS = 5000;

export interface CrashPlanEntry {
  point: CrashPointName;
  /** 1-based: act the n-th time this point is reached in this process. */
  occurrence: number;
  action: CrashAction;
  /**
   * A kill this many milliseconds after the point, while the step goes on and hands its result to
   * the runtime; absent: at once, before the step can return.
   */
  delayMs?: number;
}

export class CrashPlanError extends Error {
  override readonly name = 'CrashPlanError';
}

export function isCrashPointName(name: string): name is CrashPointName {
  return (CRASH_POINT_NAMES as readonly string[]).includes(name);
}

const PLAN_SYNTAX =
  'name, name@n for the n-th occurrence, name+ms to die that many ms later while the step goes on, name:stop to freeze instead of die, name:term to send SIGTERM and go on';

/** `after-fetch, mid-model@3, boundary:stop` → entries; a name we do not know is an error. */
export function parseCrashPlan(text: string | undefined | null): CrashPlanEntry[] {
  if (!text || !text.trim()) return [];
  return text.split(',').map((raw) => {
    const item = raw.trim();
    const match = /^([a-z-]+)(?:@(\d+))?(?:\+(\d+(?:\.\d+)?))?(?::(kill|stop|term))?$/.exec(item);
    const name = match?.[1] ?? item;
    if (!match || !isCrashPointName(name)) {
      throw new CrashPlanError(
        `unknown crash point "${item}" in CRASH_PLAN; known points: ${CRASH_POINT_NAMES.join(', ')} (${PLAN_SYNTAX})`,
      );
    }
    const occurrence = match[2] ? Number(match[2]) : 1;
    if (occurrence < 1) throw new CrashPlanError(`crash point "${item}": occurrence must be 1 or more`);
    const action = (match[4] as CrashAction | undefined) ?? 'kill';
    if (match[3] === undefined) return { point: name, occurrence, action };
    if (action !== 'kill') throw new CrashPlanError(`crash point "${item}": a delay (+ms) is for a kill only`);
    return { point: name, occurrence, action, delayMs: Number(match[3]) };
  });
}

/** What a process announces on stderr right before it acts: the harness's evidence of where it died. */
export interface CrashLine {
  point: CrashPointName;
  occurrence: number;
  action: CrashAction;
  pid: number;
  /** Epoch ms. */
  at: number;
  /** A delayed kill: the milliseconds that really passed between the point and the kill. */
  delayMs?: number;
  /** Free text after the fields, e.g. `sibling=3/3` or `url=…`. */
  detail: string;
}

function formatCrashLine(l: CrashLine): string {
  const delay = l.delayMs === undefined ? '' : ` delay=${l.delayMs.toFixed(3)}`;
  return `CRASHPOINT ${l.point}@${l.occurrence} pid=${l.pid} at=${l.at} action=${l.action}${delay}${l.detail ? ` ${l.detail}` : ''}`;
}

const CRASH_LINE =
  /^CRASHPOINT ([a-z-]+)@(\d+) pid=(\d+) at=(\d+) action=(kill|stop|term)(?: delay=(\d+(?:\.\d+)?))?(?: (.*))?$/;

/** The parser beside the writer: a line that is not a crash announcement (or names an unknown point) is null. */
export function parseCrashLine(line: string): CrashLine | null {
  const m = CRASH_LINE.exec(line.trim());
  const point = m?.[1];
  if (!m || !point || !isCrashPointName(point)) return null;
  return {
    point,
    occurrence: Number(m[2]),
    pid: Number(m[3]),
    at: Number(m[4]),
    action: m[5] as CrashAction,
    ...(m[6] !== undefined ? { delayMs: Number(m[6]) } : {}),
    detail: m[7] ?? '',
  };
}

let plan: CrashPlanEntry[] | undefined;
const reached = new Map<CrashPointName, number>();

function activePlan(): CrashPlanEntry[] {
  plan ??= parseCrashPlan(process.env.CRASH_PLAN);
  return plan;
}

/** Replace the plan of this process (tests, or a worker that got its plan from argv). Resets the counters. */
export function setCrashPlan(next: CrashPlanEntry[] | string): void {
  plan = typeof next === 'string' ? parseCrashPlan(next) : next;
  reached.clear();
}

/** True when the plan names this point at all: lets a step arrange the moment (e.g. let siblings settle) before calling crashpoint. */
export function isArmed(name: CrashPointName): boolean {
  return activePlan().some((e) => e.point === name);
}

/**
 * Reached a crash point: if the plan says this is the occurrence to act at, announce it on stderr
 * (the harness reads that line), then SIGKILL ourselves — no finally blocks, no flushing, exactly
 * what a lost machine looks like — or SIGSTOP ourselves and carry on once continued, or SIGTERM
 * ourselves and carry on at once (the step stays in flight while the process's SIGTERM handling,
 * if any, runs beside it; with none, Node dies of the signal). `settleMs`
 * delays the act so concurrent work can land first.
 */
export async function crashpoint(
  name: CrashPointName,
  opts: { settleMs?: number; detail?: string } = {},
): Promise<void> {
  if (!isCrashPointName(name)) throw new CrashPlanError(`unknown crash point "${String(name)}"`);
  const count = (reached.get(name) ?? 0) + 1;
  reached.set(name, count);
  const entry = activePlan().find((e) => e.point === name && e.occurrence === count);
  if (!entry) return;
  if (entry.delayMs !== undefined) {
    // The step returns now and the runtime starts keeping its result; the kill lands inside that.
    // Node's timers may fire a fraction of a millisecond early by the monotonic clock; the plan promises
    // at least the delay it names, so an early timer waits out the rest.
    const reachedAt = performance.now();
    const planned = entry.delayMs;
    const fire = (): void => {
      const delayMs = performance.now() - reachedAt;
      if (delayMs < planned) {
        setTimeout(fire, planned - delayMs);
        return;
      }
      const line = { point: name, occurrence: count, action: entry.action, pid: process.pid, at: Date.now(), delayMs };
      process.stderr.write(`${formatCrashLine({ ...line, detail: opts.detail ?? '' })}\n`);
      process.kill(process.pid, 'SIGKILL');
    };
    setTimeout(fire, planned);
    return;
  }
  if (opts.settleMs) await new Promise((r) => setTimeout(r, opts.settleMs));
  const line = { point: name, occurrence: count, action: entry.action, pid: process.pid, at: Date.now() };
  process.stderr.write(`${formatCrashLine({ ...line, detail: opts.detail ?? '' })}\n`);
  if (entry.action === 'stop') {
    // The kernel stops us here; the next statement runs only after SIGCONT.
    process.kill(process.pid, 'SIGSTOP');
    return;
  }
  if (entry.action === 'term') {
    process.kill(process.pid, 'SIGTERM');
    return;
  }
  process.kill(process.pid, 'SIGKILL');
  // SIGKILL to ourselves is not catchable, but make sure nothing runs while the kernel delivers it.
  await new Promise(() => {});
}
