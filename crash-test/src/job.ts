import type { CrashAt } from './events.ts';

/** What one worker process is asked to do: handed over in its environment, as JSON. */
export const JOB_ENV = 'CRASH_TEST_JOB';

export interface SiteJob {
  mode: 'record' | 'replay' | 'live';
  log: string;
  /** The baseline's calls (JSON), for a replay. */
  recording: string | null;
  crash: CrashAt | null;
  stop: 'kill' | 'term';
  prior: Record<string, number>;
}

export interface LangGraphJob {
  driver: 'langgraph';
  module: string;
  site: SiteJob;
  databaseUrl: string;
  threadId: string;
  /** `run`: invoke with the input (worker A, the baseline); `resume`: carry the thread on (worker B). */
  role: 'run' | 'resume';
  input: unknown;
  /** Answers each interrupt() with this; absent, a run that waits ends there. */
  resume?: unknown;
  durability?: 'sync' | 'async' | 'exit';
}

export interface TemporalJob {
  driver: 'temporal';
  site: SiteJob;
  activitiesPath: string;
  workflowsPath: string;
  bundlePath: string;
  address: string;
  namespace: string;
  taskQueue: string;
}

export type WorkerJob = LangGraphJob | TemporalJob;
