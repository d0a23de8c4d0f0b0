import { parseCrashPlan, formatCrashLine, type CrashLine, type CrashPlanEntry } from './plan.ts';
import type { CrashPointName } from './points.ts';
import { busyBetween, cpuTimes } from './cpu.ts';

/**
 * The plan armed in this process, how often each point has been reached, and the act itself. Only
 * the instrument's sites call in here (calls.ts, sites.ts): the app never does.
 */
let plan: CrashPlanEntry[] = [];
const reached = new Map<CrashPointName, number>();

/** Replace the plan of this process (a worker at start, a test). Resets the counters. */
export function armCrashPlan(next: CrashPlanEntry[] | string): void {
  plan = typeof next === 'string' ? parseCrashPlan(next) : next;
  reached.clear();
}

/** True when the plan names this point at all: a site that costs something to watch watches only then. */
export function isArmed(point: CrashPointName): boolean {
  return plan.some((e) => e.point === point);
}

/** One arrival at a point: counted, and the plan's entry when this is the occurrence it names. */
export interface Arrival {
  entry: CrashPlanEntry;
  occurrence: number;
}

export function arrive(point: CrashPointName): Arrival | null {
  const occurrence = (reached.get(point) ?? 0) + 1;
  reached.set(point, occurrence);
  const entry = plan.find((e) => e.point === point && e.occurrence === occurrence);
  return entry ? { entry, occurrence } : null;
}

function announce(a: Arrival, detail: string, delayMs?: number, cpu?: CrashLine['cpu']): void {
  const line = formatCrashLine({
    point: a.entry.point,
    occurrence: a.occurrence,
    action: a.entry.action,
    pid: process.pid,
    at: Date.now(),
    ...(delayMs !== undefined ? { delayMs } : {}),
    ...(cpu ? { cpu } : {}),
    detail,
  });
  process.stderr.write(`${line}\n`);
}

/**
 * Act on an arrival: announce it on stderr (the harness reads that line), then SIGKILL ourselves —
 * no finally blocks, no flushing, what a lost machine looks like — or SIGSTOP ourselves and carry
 * on once continued, or SIGTERM ourselves and carry on at once (whatever the runtime does on
 * SIGTERM runs beside the work in flight). A delayed kill returns at once and lands `delayMs`
 * later, inside whatever the runtime does next with the result.
 */
export async function act(a: Arrival, detail = ''): Promise<void> {
  const { entry } = a;
  if (entry.delayMs !== undefined) {
    // Node's timers may fire a fraction of a millisecond early by the monotonic clock; the plan
    // promises at least the delay it names, so an early timer waits out the rest. How busy the
    // machine was over the delay: read once here and once where the timer fires.
    const cpuAtReach = cpuTimes();
    const reachedAt = performance.now();
    const planned = entry.delayMs;
    const fire = (): void => {
      const delayMs = performance.now() - reachedAt;
      if (delayMs < planned) {
        setTimeout(fire, planned - delayMs);
        return;
      }
      announce(a, detail, delayMs, busyBetween(cpuAtReach, cpuTimes()) ?? undefined);
      process.kill(process.pid, 'SIGKILL');
    };
    setTimeout(fire, planned);
    return;
  }
  announce(a, detail);
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

/** Reached a point: count it, and act when the plan says so (after `settleMs`, to let other work land first). */
export async function reach(point: CrashPointName, opts: { settleMs?: number; detail?: string } = {}): Promise<void> {
  const a = arrive(point);
  if (!a) return;
  if (opts.settleMs) await new Promise((r) => setTimeout(r, opts.settleMs));
  await act(a, opts.detail);
}
