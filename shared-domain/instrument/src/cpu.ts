import { readFileSync } from 'node:fs';

/**
 * How busy the whole machine was between two moments, from the kernel's own counters (the `cpu`
 * line of /proc/stat: every core, in USER_HZ ticks of 10 ms per core), not the load average,
 * which trails by a minute. A delayed kill reads it where its delay starts and where it fires.
 */
export interface CpuTimes {
  busy: number;
  total: number;
}

/** The `cpu` line's counters, or null where there is no /proc/stat (not Linux). */
export function cpuTimes(read: () => string = () => readFileSync('/proc/stat', 'utf8')): CpuTimes | null {
  let text: string;
  try {
    text = read();
  } catch {
    return null;
  }
  const line = text.split('\n', 1)[0] ?? '';
  if (!line.startsWith('cpu ')) return null;
  // user nice system idle iowait irq softirq steal (guest and guest_nice are already inside user and nice).
  const v = line.trim().split(/\s+/).slice(1, 9).map(Number);
  if (v.length < 5 || v.some((n) => !Number.isFinite(n))) return null;
  const total = v.reduce((a, b) => a + b, 0);
  return { busy: total - v[3]! - v[4]!, total };
}

/** The share of the machine's CPU time that was busy between `from` and `to`, and the ticks it rests on. */
export function busyBetween(
  from: CpuTimes | null,
  to: CpuTimes | null,
): { share: number | null; ticks: number } | null {
  if (!from || !to) return null;
  const ticks = to.total - from.total;
  return { share: ticks > 0 ? (to.busy - from.busy) / ticks : null, ticks };
}
