/**
 * Named places where a worker can be made to die with SIGKILL, the same names in both runtimes.
 * A plan is a comma-separated list of `name` or `name@n` (die at the n-th time the point is
 * reached in this process; default 1), read from CRASH_PLAN. A name we do not know is an error,
 * never a silent no-op: a typo would otherwise "prove" that nothing repeats.
 */
export const CRASH_POINTS = {
  boundary: {
    where: 'after FETCH is durable, before EXTRACT starts',
    lesson: 'A crash on a durable boundary repeats nothing: resume starts at the next step.',
  },
  'after-fetch': {
    where: 'FETCH got the page, the step is not yet committed',
    lesson: 'The page is fetched again: reads are cheap to repeat, so only time is lost.',
  },
  'after-model': {
    where: 'EXTRACT got the model answer, the step is not yet committed',
    lesson: 'A paid model call runs twice: the tokens are billed again even though the answer was already received.',
  },
  'mid-model': {
    where: 'while the model request is in flight',
    lesson: 'The provider bills a call whose answer nobody received, and the resumed worker pays for it again.',
  },
  'after-progress': {
    where: 'SAVE_PROGRESS wrote the tracker note, the step is not yet committed',
    lesson: 'The tracker gets a second note unless the request carries an idempotency key the tracker honours.',
  },
  'after-deliver': {
    where: 'DELIVER sent the mail, the step is not yet committed',
    lesson: 'The customer receives the mail twice unless a key or an outbox makes the second send a no-op.',
  },
  'parallel-fetch': {
    where: 'two of three parallel page fetches finished, the third has not',
    lesson:
      'Finished siblings are kept (LangGraph pending writes, Temporal completed activities); only the unfinished fetch runs again.',
  },
  'awaiting-approval': {
    where: 'the run is durably waiting for a human approval',
    lesson:
      'A waiting run costs nothing and loses nothing: the approval sent while no worker was alive is picked up by the next one.',
  },
} as const;

export type CrashPointName = keyof typeof CRASH_POINTS;
export const CRASH_POINT_NAMES = Object.keys(CRASH_POINTS) as CrashPointName[];

export interface CrashPlanEntry {
  point: CrashPointName;
  /** 1-based: die the n-th time this point is reached in this process. */
  occurrence: number;
}

export class CrashPlanError extends Error {
  override readonly name = 'CrashPlanError';
}

export function isCrashPointName(name: string): name is CrashPointName {
  return Object.hasOwn(CRASH_POINTS, name);
}

export function parseCrashPlan(text: string | undefined | null): CrashPlanEntry[] {
  if (!text || !text.trim()) return [];
  return text.split(',').map((raw) => {
    const item = raw.trim();
    const match = /^([a-z-]+)(?:@(\d+))?$/.exec(item);
    const name = match?.[1] ?? item;
    if (!match || !isCrashPointName(name)) {
      throw new CrashPlanError(
        `unknown crash point "${item}" in CRASH_PLAN; known points: ${CRASH_POINT_NAMES.join(', ')} (optionally name@n for the n-th occurrence)`,
      );
    }
    const occurrence = match[2] ? Number(match[2]) : 1;
    if (occurrence < 1) throw new CrashPlanError(`crash point "${item}": occurrence must be 1 or more`);
    return { point: name, occurrence };
  });
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
 * Reached a crash point: if the plan says this is the occurrence to die at, announce it on stderr
 * (the harness reads that line) and SIGKILL ourselves — no finally blocks, no flushing, exactly
 * what a lost machine looks like. `settleMs` delays the kill so concurrent work can land first.
 */
export async function crashpoint(
  name: CrashPointName,
  opts: { settleMs?: number; detail?: string } = {},
): Promise<void> {
  if (!isCrashPointName(name)) throw new CrashPlanError(`unknown crash point "${String(name)}"`);
  const count = (reached.get(name) ?? 0) + 1;
  reached.set(name, count);
  if (!activePlan().some((e) => e.point === name && e.occurrence === count)) return;
  if (opts.settleMs) await new Promise((r) => setTimeout(r, opts.settleMs));
  process.stderr.write(
    `CRASHPOINT ${name}@${count} pid=${process.pid} at=${Date.now()}${opts.detail ? ` ${opts.detail}` : ''}\n`,
  );
  process.kill(process.pid, 'SIGKILL');
  // SIGKILL to ourselves is not catchable, but make sure nothing runs while the kernel delivers it.
  await new Promise(() => {});
}
