import type { Durability, Granularity, Variant } from '@vendor-review/pipeline';
import type { CrashPointName, StopMode } from '@vendor-review/instrument';
import type { HazardId, WindowStep } from '@vendor-review/conformance';

/**
 * What `pnpm compare` was asked to do, as cli.ts parsed it once: the suites read what they need
 * of it (suites/), the command its own settings (compare.ts, run-compare.ts).
 */
export interface CompareOptions {
  /** Which suites, by name (suites/index.ts; default: those that run by default). */
  suites: string[];
  runtimes?: string[];
  variants?: Variant[];
  crashPoints?: CrashPointName[];
  /** The production hazards (default: one per lesson, DEFAULT_HAZARDS; with `full`: all). */
  hazards?: HazardId[];
  durabilities?: Durability[];
  /** How worker A leaves at the crash point: kill (SIGKILL, the default), term (SIGTERM and a grace period). */
  stops?: StopMode[];
  /** The granularity suite's granularities (default: every one a runtime offers). */
  granularities?: Granularity[];
  /** The window suite's steps (default: both). */
  windowSteps?: WindowStep[];
  /** The window suite's ladder of delays in ms, rising (default WINDOW_DELAYS_MS); finer ones are added where the outcome flips. */
  windowDelays?: number[];
  /**
   * Times every cell and hazard row runs. Unset: once; with `full`, those whose outcome depends on
   * timing (the `varies` deviations and `alsoSeen` verdicts a runtime names, and the racing crash
   * points) run VARYING_REPEATS times.
   */
  repeat?: number;
  /** Model calls forwarded by the world to a real OpenAI-compatible provider (key: OPENAI_API_KEY, never stored here). */
  modelUpstream?: { baseUrl: string; model: string };
  /** Remove what earlier runs left in DATABASE_URL's database, then exit. */
  clean?: boolean;
  json: boolean;
  reportDir: string;
  keepInfra: boolean;
  concurrency: number;
  /** Seconds a phase (worker A until the crash, worker B until done) may take before the cell is "stuck". */
  boundSeconds: number;
  /**
   * Every durability mode, both ways of leaving (kill and term), every suite, and the cells and
   * hazard rows whose outcome depends on timing VARYING_REPEATS times, where the default runs each variant in its
   * baseline configuration, kills only, crash and production, every cell once.
   */
  full?: boolean;
  /** Print where the time went (worker starts, the runtime's own waits, the harness's cost) after the table. */
  profile?: boolean;
}

/** Runs per delay in the window suite, unless --repeat says otherwise: a share needs several. */
export const WINDOW_RUNS = 3;
