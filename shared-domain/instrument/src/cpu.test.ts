import { describe, expect, it } from 'vitest';
import { busyBetween, cpuTimes } from './cpu.ts';

const stat = (user: number, idle: number, iowait = 0) =>
  `cpu  ${user} 0 10 ${idle} ${iowait} 0 0 0 0 0\ncpu0 1 0 0 1 0 0 0 0 0 0\n`;

describe('how busy the machine was', () => {
  it('counts every core busy but idle and iowait, from the aggregate line', () => {
    expect(cpuTimes(() => stat(90, 100, 20))).toEqual({ busy: 100, total: 220 });
  });

  it('gives the busy share over an interval, and the ticks it rests on', () => {
    const from = cpuTimes(() => stat(90, 100))!;
    const to = cpuTimes(() => stat(96, 102))!;
    expect(busyBetween(from, to)).toEqual({ share: 0.75, ticks: 8 });
    // No tick passed: no share, rather than a 0 or a 1 that nobody measured.
    expect(busyBetween(from, from)).toEqual({ share: null, ticks: 0 });
  });

  it('is null where there is no /proc/stat, or it reads otherwise', () => {
    expect(
      cpuTimes(() => {
        throw new Error('ENOENT');
      }),
    ).toBeNull();
    expect(cpuTimes(() => 'intr 1 2 3\n')).toBeNull();
    expect(busyBetween(null, { busy: 1, total: 2 })).toBeNull();
  });
});
