/**
 * The crash points by name, and where the instrument finds each one in a worker it did not write.
 * Free of I/O and of Node built-ins: the report, the catalogue and the chaos schedule import it.
 *
 * A point is reached at one of four kinds of site, none of them inside the app's code:
 * - a **call**: an outbound HTTP request the process makes (fetch and node:http(s)), matched by
 *   method and path: before it leaves, while it is in flight, or once its answer is in;
 * - a **step**: a step beginning, seen at the runtime's own extension point (a LangGraph callback,
 *   a Temporal interceptor, a Restate hook, or the smallest wrapper around what the app composes);
 * - a **commit**: the runtime writing a step's result, where our side reaches it (a saver);
 * - a **wait**: the run durably waiting for a person, as the runtime's own record says;
 * - a **start**: the call that starts a run (LangGraph's `invoke()`, DBOS's `startWorkflow`, a
 *   client's submit), in the process that makes it, reported by the harness around that call.
 * What each point means and what a crash there must show is the catalogue's (conformance).
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
  'start-call',
  'mid-commit',
  'before-deliver',
] as const;
export type CrashPointName = (typeof CRASH_POINT_NAMES)[number];

export function isCrashPointName(name: string): name is CrashPointName {
  return (CRASH_POINT_NAMES as readonly string[]).includes(name);
}

/**
 * The points the crash matrix and chaos arm. `first-step` and `start-call` belong to the commit
 * window suite (the first checkpoint, swept over delays), where a single kill would say little; `before-deliver` is
 * where the partition hazard cuts a worker off, and a kill there would repeat nothing.
 */
export const MATRIX_CRASH_POINTS: readonly CrashPointName[] = CRASH_POINT_NAMES.filter(
  (p) => p !== 'first-step' && p !== 'start-call' && p !== 'before-deliver',
);

/**
 * What happens at the point: `kill` (SIGKILL, a lost machine), `stop` (SIGSTOP: the process
 * freezes itself and goes on when someone sends SIGCONT, a paused VM or a long GC pause) or `term`
 * (SIGTERM to itself, and the work goes on: a deploy or a scale-in asking the worker to stop while
 * the step is in flight; the harness gives it a grace period and then SIGKILLs it). `stop` is also
 * how a harness lines two workers up at the same step before letting both go.
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
 */
export const STOP_GRACE_MS = 5000;

/** The outbound calls the pipeline makes, as the instrument tells them apart on the wire. */
export type CallKind = 'page' | 'model' | 'tracker' | 'mail';

/** When, around a call, a point is reached. */
export type CallMoment = 'before' | 'in-flight' | 'after' | 'last-of-fan-out';

/** Where each point is reached. Occurrences (`name@n`) count the sites below in one process. */
export type PointSite =
  | { kind: 'call'; call: CallKind; moment: CallMoment; settleMs?: number }
  | { kind: 'step'; steps: readonly string[] }
  | { kind: 'commit'; step: string }
  | { kind: 'wait' }
  | { kind: 'start' };

/**
 * Counted from the moment the model request leaves: long enough for it to reach the model, well
 * short of the world's model latency, so the kill lands while the call is in flight.
 */
export const MID_MODEL_SETTLE_MS = 100;

/** Long enough for sibling fetches (fast loopback GETs) to finish and be recorded by the runtime. */
export const PARALLEL_FETCH_SETTLE_MS = 400;

/** The step whose result `mid-commit` catches being committed. */
export const MID_COMMIT_STEP = 'EXTRACT';

export const POINT_SITES: Record<CrashPointName, PointSite> = {
  // A step beginning, by the name the runtime gives it (case aside). The run's first step is
  // VALIDATE, or REVIEW where one coarse step holds the whole research.
  'first-step': { kind: 'step', steps: ['VALIDATE', 'REVIEW'] },
  boundary: { kind: 'step', steps: ['EXTRACT'] },
  // Every page GET counts (not the sitemap): a page the run already holds is not fetched again.
  'after-fetch': { kind: 'call', call: 'page', moment: 'after' },
  // The last of two or more sibling page GETs (fan-out.ts), held while its siblings finish and are kept.
  'parallel-fetch': {
    kind: 'call',
    call: 'page',
    moment: 'last-of-fan-out',
    settleMs: PARALLEL_FETCH_SETTLE_MS,
  },
  // Every model call counts, DRAFT's too; it comes after every requirement's EXTRACT.
  'mid-model': { kind: 'call', call: 'model', moment: 'in-flight', settleMs: MID_MODEL_SETTLE_MS },
  'after-model': { kind: 'call', call: 'model', moment: 'after' },
  'after-progress': { kind: 'call', call: 'tracker', moment: 'after' },
  'before-deliver': { kind: 'call', call: 'mail', moment: 'before' },
  'after-deliver': { kind: 'call', call: 'mail', moment: 'after' },
  // Inside the commit of the first checkpoint that keeps this step's result (the first model call).
  'mid-commit': { kind: 'commit', step: MID_COMMIT_STEP },
  'start-call': { kind: 'start' },
  'awaiting-approval': { kind: 'wait' },
};

/**
 * Which of the pipeline's calls a request is, from its method and path alone (the host may be the
 * world, a vendor's site or a real provider): null for anything else, which passes untouched.
 */
export function callKindOf(method: string, pathname: string): CallKind | null {
  const m = method.toUpperCase();
  if (m === 'POST' && /\/chat\/completions$|\/v1\/messages$/.test(pathname)) return 'model';
  if (m === 'POST' && pathname.endsWith('/tracker/notes')) return 'tracker';
  if (m === 'POST' && pathname.endsWith('/mail/send')) return 'mail';
  if (m === 'GET' && /\/vendors\/[^/]+\//.test(pathname) && !pathname.endsWith('/sitemap.json')) return 'page';
  return null;
}
