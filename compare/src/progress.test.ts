import { describe, expect, it } from 'vitest';
import { createProgress } from './progress.ts';

// eslint-disable-next-line no-control-regex -- the escape character is what the footer's cursor codes start with
const CLEAR_FOOTER = /^\x1b\[\d+F\x1b\[J$/;

/** A clock the test moves and a timer it fires: the footer and the heartbeat are checked without waiting. */
function harness(tty: boolean, totalExpectedMs?: number) {
  let t = 0;
  let tick: (() => void) | undefined;
  let stopped = false;
  const out: string[] = [];
  const progress = createProgress({
    write: (text) => out.push(text),
    tty,
    total: 4,
    ...(totalExpectedMs ? { totalExpectedMs } : {}),
    now: () => t,
    every: (fn) => {
      tick = fn;
      return () => {
        stopped = true;
      };
    },
    heartbeatMs: 5000,
  });
  return {
    progress,
    out,
    advance: (ms: number) => {
      t += ms;
      tick!();
    },
    get stopped() {
      return stopped;
    },
  };
}

describe('progress on a terminal', () => {
  it('keeps a live footer under the log: running cells with their time, elapsed, ETA', () => {
    const h = harness(true);
    h.progress.started('a', 'CP naive/async after-model');
    h.progress.started('b', 'JN hardened boundary');
    h.advance(4000);
    h.progress.finished('a');
    h.progress.log('[1/4] ✓ CP naive/async after-model');
    const last = h.out.at(-1)!;
    expect(h.out.at(-2)).toBe('[1/4] ✓ CP naive/async after-model\n');
    // The footer went away before the line and came back under it.
    expect(h.out.at(-3)).toMatch(CLEAR_FOOTER);
    expect(last).toContain('── 1/4 done · 1 running · elapsed 0:04 · ETA 0:12');
    expect(last).toContain('   ▸ JN hardened boundary 4.00 s');
    h.progress.stop();
    expect(h.stopped).toBe(true);
    expect(h.out.at(-1)).toMatch(CLEAR_FOOTER);
  });
});

describe('progress off a terminal', () => {
  it('writes a heartbeat line every few seconds, and no escape codes', () => {
    const h = harness(false);
    h.progress.started('a', 'plain naive after-fetch');
    h.advance(5000);
    expect(h.out).toEqual([
      '[heartbeat] 0/4 done · 1 running · elapsed 0:05 · ETA — · running: plain naive after-fetch 5.00 s\n',
    ]);
    h.progress.finished('a');
    h.progress.log('[1/4] ✓ plain naive after-fetch');
    h.advance(5000);
    expect(h.out.at(-1)).toBe('[heartbeat] 1/4 done · 0 running · elapsed 0:10 · ETA 0:30\n');
    expect(h.out.join('')).not.toContain('\x1b');
  });
});

describe('the ETA, with each item’s expected length', () => {
  it('is the expected work left at the pace the expected work went: a long item left counts for more', () => {
    const h = harness(false, 100_000);
    // Two short items of 10 s each are expected; they took 5 s (this machine is twice as fast).
    h.progress.started('a', 'short a', 10_000);
    h.progress.started('b', 'short b', 10_000);
    h.advance(5000);
    h.progress.finished('a');
    h.progress.finished('b');
    // 20 s of the 100 s expected are done in 5 s: 80 s left at that pace is 20 s, where the
    // items' count (2 of 4 done) would say 5 s.
    h.advance(0);
    expect(h.out.at(-1)).toBe('[heartbeat] 2/4 done · 0 running · elapsed 0:05 · ETA 0:20\n');
    // A running item counts as far as its expected length, and no further.
    h.progress.started('c', 'long c', 60_000);
    h.advance(15_000);
    // 35 s of expected work in 20 s: the 65 s left take 37 s.
    expect(h.out.at(-1)).toContain('elapsed 0:20 · ETA 0:37 · running: long c 15.0 s');
  });
});
