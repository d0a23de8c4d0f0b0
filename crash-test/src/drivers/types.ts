import { join } from 'node:path';
import type { CrashAt, WorkerEvent } from '../events.ts';
import type { SiteJob } from '../job.ts';
import type { Runtime } from '../load-app.ts';

export type CallMode = 'record' | 'replay' | 'live';

export interface CellSpec {
  /** `baseline`, or the crash point in a word (`after-call-3`). */
  id: string;
  crash: CrashAt | null;
  mode: CallMode;
}

/** One cell as it ran: each worker's events, when A died, how the run ended (or why it did not). */
export interface CellRun {
  spec: CellSpec;
  a: WorkerEvent[];
  b: WorkerEvent[];
  startedAt: number;
  /** When worker A died at its point; null when it never reached it. */
  aDiedAt: number | null;
  endedAt: number | null;
  final: { state: unknown; status: string } | null;
  /** Why the run did not end within the bound, in the runtime's terms (the timeout it waited on). */
  stuck: string | null;
  /** Where the time went, for --profile: worker starts and phases, ms. */
  profile: Record<string, number>;
}

export interface DriverContext {
  workDir: string;
  /** The user's directory: workers start there. */
  cwd: string;
  recordingPath: string;
  stop: 'kill' | 'term';
  /** Each phase (worker A to its point, worker B to the end) may take this long. */
  boundMs: number;
}

export interface Driver {
  runtime: Runtime;
  /** The SDK as loaded from the user's node_modules: `{ '@langchain/langgraph': '1.7.3' }`. */
  versions: Record<string, string | null>;
  /** The servers and stores it brought up, one line each, for the report. */
  infra: string[];
  /** What the report must say of how cells ran (a setting the tool chose). */
  notes: string[];
  run(cell: CellSpec): Promise<CellRun>;
  close(): Promise<void>;
}

/** Calls worker A made, by key: worker B's occurrences go on from there. */
export function priorCounts(events: readonly WorkerEvent[]): Record<string, number> {
  const prior: Record<string, number> = {};
  for (const ev of events) {
    if (ev.e !== 'sent') continue;
    const key = `${ev.method.toUpperCase()} ${ev.host}${ev.path}`;
    prior[key] = Math.max(prior[key] ?? 0, ev.occurrence);
  }
  return prior;
}

export function siteJob(
  ctx: DriverContext,
  cell: CellSpec,
  worker: 'a' | 'b',
  prior: Record<string, number> = {},
): SiteJob {
  return {
    mode: cell.mode,
    log: join(ctx.workDir, `${cell.id}.${worker}.jsonl`),
    recording: cell.mode === 'replay' ? ctx.recordingPath : null,
    crash: worker === 'a' ? cell.crash : null,
    stop: ctx.stop,
    prior,
  };
}

export const outputOf = (ctx: DriverContext, cell: CellSpec, worker: 'a' | 'b'): string =>
  join(ctx.workDir, `${cell.id}.${worker}.log`);

export const diedAt = (events: readonly WorkerEvent[]): number | null => events.find((e) => e.e === 'crash')?.t ?? null;

export function doneOf(events: readonly WorkerEvent[]): { state: unknown; status: string; t: number } | null {
  const done = events.find((e) => e.e === 'done');
  return done && done.e === 'done' ? { state: done.state, status: done.status, t: done.t } : null;
}

export function errorOf(events: readonly WorkerEvent[]): string | null {
  const err = events.find((e) => e.e === 'error');
  return err && err.e === 'error' ? err.message : null;
}
