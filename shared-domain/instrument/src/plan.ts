import { CRASH_POINT_NAMES, isCrashPointName, type CrashAction, type CrashPointName } from './points.ts';

/**
 * A plan is a comma-separated list of `name`, `name@n` (act at the n-th time the point is reached
 * in this process; default 1), `+ms` (a kill that many milliseconds later, while the work goes on:
 * the commit window) and `:kill|stop|term` (what to do there). A name we do not know is an error,
 * never a silent no-op: a typo would otherwise "prove" that nothing repeats.
 */
export interface CrashPlanEntry {
  point: CrashPointName;
  /** 1-based: act the n-th time this point is reached in this process. */
  occurrence: number;
  action: CrashAction;
  /** A kill this many milliseconds after the point, while the work goes on; absent: at once. */
  delayMs?: number;
}

export class CrashPlanError extends Error {
  override readonly name = 'CrashPlanError';
}

const PLAN_SYNTAX =
  'name, name@n for the n-th occurrence, name+ms to die that many ms later while the step goes on, name:stop to freeze instead of die, name:term to send SIGTERM and go on';

/** `after-fetch, mid-model@3, boundary:stop` → entries; a name we do not know is an error. */
export function parseCrashPlan(text: string | undefined | null): CrashPlanEntry[] {
  if (!text || !text.trim()) return [];
  return text.split(',').map((raw) => {
    const item = raw.trim();
    const match = /^([a-z-]+)(?:@(\d+))?(?:\+(\d+(?:\.\d+)?))?(?::(kill|stop|term))?$/.exec(item);
    const name = match?.[1] ?? item;
    if (!match || !isCrashPointName(name)) {
      throw new CrashPlanError(
        `unknown crash point "${item}" in the crash plan; known points: ${CRASH_POINT_NAMES.join(', ')} (${PLAN_SYNTAX})`,
      );
    }
    const occurrence = match[2] ? Number(match[2]) : 1;
    if (occurrence < 1) throw new CrashPlanError(`crash point "${item}": occurrence must be 1 or more`);
    const action = (match[4] as CrashAction | undefined) ?? 'kill';
    if (match[3] === undefined) return { point: name, occurrence, action };
    if (action !== 'kill') throw new CrashPlanError(`crash point "${item}": a delay (+ms) is for a kill only`);
    return { point: name, occurrence, action, delayMs: Number(match[3]) };
  });
}

/** The plan as text again, in the syntax above. */
export function formatCrashPlan(entries: readonly CrashPlanEntry[]): string {
  return entries
    .map(
      (e) =>
        `${e.point}${e.occurrence > 1 ? `@${e.occurrence}` : ''}${e.delayMs !== undefined ? `+${e.delayMs}` : ''}${e.action !== 'kill' ? `:${e.action}` : ''}`,
    )
    .join(',');
}

/** What a process announces on stderr right before it acts: the harness's evidence of where it died. */
export interface CrashLine {
  point: CrashPointName;
  occurrence: number;
  action: CrashAction;
  pid: number;
  /** Epoch ms. */
  at: number;
  /** A delayed kill: the milliseconds that really passed between the point and the kill. */
  delayMs?: number;
  /**
   * A delayed kill: the share of the machine's CPU time (all cores, /proc/stat) that was busy over
   * the delay, null when no tick passed, and the ticks (10 ms of one core each) it rests on; absent
   * where there is no /proc/stat.
   */
  cpu?: { share: number | null; ticks: number };
  /** Free text after the fields, e.g. `sibling=3/3` or `url=…`. */
  detail: string;
}

export function formatCrashLine(l: CrashLine): string {
  const delay = l.delayMs === undefined ? '' : ` delay=${l.delayMs.toFixed(3)}`;
  const cpu = l.cpu ? ` cpu=${l.cpu.share === null ? '-' : l.cpu.share.toFixed(3)}/${l.cpu.ticks}` : '';
  return `CRASHPOINT ${l.point}@${l.occurrence} pid=${l.pid} at=${l.at} action=${l.action}${delay}${cpu}${l.detail ? ` ${l.detail}` : ''}`;
}

const CRASH_LINE =
  /^CRASHPOINT ([a-z-]+)@(\d+) pid=(\d+) at=(\d+) action=(kill|stop|term)(?: delay=(\d+(?:\.\d+)?))?(?: cpu=(-|\d+(?:\.\d+)?)\/(\d+))?(?: (.*))?$/;

/** The parser beside the writer: a line that is not a crash announcement (or names an unknown point) is null. */
export function parseCrashLine(line: string): CrashLine | null {
  const m = CRASH_LINE.exec(line.trim());
  const point = m?.[1];
  if (!m || !point || !isCrashPointName(point)) return null;
  return {
    point,
    occurrence: Number(m[2]),
    pid: Number(m[3]),
    at: Number(m[4]),
    action: m[5] as CrashAction,
    ...(m[6] !== undefined ? { delayMs: Number(m[6]) } : {}),
    ...(m[7] !== undefined ? { cpu: { share: m[7] === '-' ? null : Number(m[7]), ticks: Number(m[8]) } } : {}),
    detail: m[9] ?? '',
  };
}
