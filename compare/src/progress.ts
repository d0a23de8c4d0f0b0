import { seconds } from './table.ts';

/**
 * What a two-minute run with ~100 worker processes is doing right now. On a terminal: a live
 * footer under the log (the cells and hazards running, how long each has run, elapsed time and an
 * ETA), redrawn every second and whenever a line is logged above it. Off a
 * terminal (CI, a pipe): the same log lines, plus one heartbeat line every few seconds, so a log
 * that stops moving is a hang and not a slow cell.
 */
export interface Progress {
  /** A line above the footer (finished cells, infrastructure messages). */
  log(line: string): void;
  /** `expectedMs`: how long the item is expected to take (expected-times.ts), for the ETA. */
  started(id: string, label: string, expectedMs?: number | null): void;
  finished(id: string): void;
  /** More items than planned, each expected to take `expectedMs`: a suite that picks its next runs from the last ones. */
  more(count: number, expectedMs: number): void;
  /** Clears the footer and stops the timer; idempotent. */
  stop(): void;
}

export interface ProgressOptions {
  write: (text: string) => void;
  tty: boolean;
  /** Cells and hazards this run will do. */
  total: number;
  /**
   * How long all of them are expected to take, one after the other (expected-times.ts). The ETA
   * is then the work left at the pace the expected work has been done so far (a long row counts
   * for more than a short one); without it, the items left at the pace they were done.
   */
  totalExpectedMs?: number;
  /** Terminal width, for cutting long footer lines. Default 120. */
  columns?: number;
  now?: () => number;
  /** Calls `fn` every `ms` (a test passes its own and calls `fn` itself); returns a stopper. */
  every?: (fn: () => void, ms: number) => () => void;
  heartbeatMs?: number;
  /** At most this many running items are listed. Default 6. */
  maxListed?: number;
}

const realEvery = (fn: () => void, ms: number) => {
  const t = setInterval(fn, ms);
  t.unref();
  return () => clearInterval(t);
};

function clock(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export function createProgress(o: ProgressOptions): Progress {
  const now = o.now ?? Date.now;
  const every = o.every ?? realEvery;
  const columns = Math.max(40, o.columns ?? 120);
  const maxListed = o.maxListed ?? 6;
  const began = now();
  const running = new Map<string, { label: string; since: number; expectedMs: number }>();
  let total = o.total;
  let totalExpectedMs = o.totalExpectedMs ?? 0;
  let done = 0;
  let doneExpectedMs = 0;
  let footerLines = 0;
  let stopped = false;

  const eta = (): string => {
    const elapsed = now() - began;
    if (totalExpectedMs) {
      // A running item is counted as far as its expected length, never past it.
      let worked = doneExpectedMs;
      for (const r of running.values()) worked += Math.min(now() - r.since, r.expectedMs);
      if (worked <= 0 || elapsed <= 0) return 'ETA —';
      return `ETA ${clock((elapsed / worked) * Math.max(0, totalExpectedMs - worked))}`;
    }
    if (done === 0) return 'ETA —';
    return `ETA ${clock((elapsed / done) * (total - done))}`;
  };
  const summary = () => `${done}/${total} done · ${running.size} running · elapsed ${clock(now() - began)} · ${eta()}`;
  const listing = () =>
    [...running.values()].sort((a, b) => a.since - b.since).map((r) => `${r.label} ${seconds(now() - r.since)}`);

  const cut = (l: string) => (l.length > columns - 1 ? `${l.slice(0, columns - 2)}…` : l);
  const clearFooter = () => {
    if (!footerLines) return;
    // Up to the footer's first line, then clear to the end of the screen.
    o.write(`\x1b[${footerLines}F\x1b[J`);
    footerLines = 0;
  };
  const drawFooter = () => {
    if (!o.tty || stopped) return;
    const items = listing();
    const shown = items.slice(0, maxListed);
    const more = items.length - shown.length;
    const lines = [
      `── ${summary()}`,
      ...shown.map((l) => `   ▸ ${l}`),
      ...(more > 0 ? [`   … and ${more} more`] : []),
    ].map(cut);
    o.write(`${lines.join('\n')}\n`);
    footerLines = lines.length;
  };

  const stopTimer = o.tty
    ? every(() => {
        clearFooter();
        drawFooter();
      }, 1000)
    : every(() => {
        const items = listing();
        o.write(
          `${cut(`[heartbeat] ${summary()}${items.length ? ` · running: ${items.slice(0, maxListed).join(', ')}${items.length > maxListed ? ', …' : ''}` : ''}`)}\n`,
        );
      }, o.heartbeatMs ?? 5000);

  return {
    log(line) {
      if (stopped) return o.write(`${line}\n`);
      clearFooter();
      o.write(`${line}\n`);
      drawFooter();
    },
    started(id, label, expectedMs) {
      running.set(id, { label, since: now(), expectedMs: expectedMs ?? 0 });
      if (o.tty && !stopped) {
        clearFooter();
        drawFooter();
      }
    },
    finished(id) {
      const r = running.get(id);
      if (!r) return;
      running.delete(id);
      done++;
      doneExpectedMs += r.expectedMs;
    },
    more(count, expectedMs) {
      total += count;
      if (totalExpectedMs) totalExpectedMs += count * expectedMs;
    },
    stop() {
      if (stopped) return;
      clearFooter();
      stopped = true;
      stopTimer();
    },
  };
}
