import type { CrashPointName } from './points.ts';

/**
 * A delayed kill held at its point until the harness says go: set (to 1) in the environment of a
 * worker whose δ is measured alone. At the point the worker writes a hold line on stderr and the
 * step waits; the harness freezes every other worker it runs, then sends the held one HOLD_GO_SIGNAL,
 * and δ counts from there. A signal, not SIGSTOP and SIGCONT: the harness freezes and wakes the
 * other workers with those, and must never wake one that is waiting for its turn.
 */
export const CRASH_HOLD_ENV = 'CRASH_HOLD';
export const HOLD_GO_SIGNAL = 'SIGUSR2';

export const formatHoldLine = (point: CrashPointName, occurrence: number): string =>
  `CRASHHOLD ${point}@${occurrence} pid=${process.pid}`;

/** The hold line, as the harness waits for it. */
export const HOLD_LINE = /^CRASHHOLD [a-z-]+@\d+ pid=\d+$/;
