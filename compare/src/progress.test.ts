import { describe, expect, it } from 'vitest';
import { createProgress } from './progress.ts';

// eslint-disable-next-line no-control-regex -- the escape character is what the footer's cursor codes start with
const CLEAR_FOOTER = /^\x1b\[\d+F\x1b\[J$/;

/** A clock the test moves and a timer it fires: the footer and the heartbeat are checked without waiting. */
function harness(tty: boolean) {
  let t = 0;
  let tick: (() => void) | undefined;
  let stopped = false;
  const out: string[] = [];
  const progress = createProgress({
    write: (text) => out.push(text),
    tty,
    total: 4,
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
    h.progress.started('a', 'LG naive/async after-model');
    h.progress.started('b', 'TM hardened boundary');
    h.advance(4000);
    h.progress.finished('a');
    h.progress.log('[1/4] ✓ LG naive/async after-model');
    const last = h.out.at(-1)!;
    expect(h.out.at(-2)).toBe('[1/4] ✓ LG naive/async after-model\n');
    // The footer went away before the line and came back under it.
    expect(h.out.at(-3)).toMatch(CLEAR_FOOTER);
    expect(last).toContain('── 1/4 done · 1 running · elapsed 0:04 · ETA 0:12');
    expect(last).toContain('   ▸ TM hardened boundary 4.00 s');
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
