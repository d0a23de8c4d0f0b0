import type { CrashAt, WorkerEvent } from './events.ts';
import { callsOf } from './record.ts';

/**
 * The crash plan, derived from the baseline: a kill after each recorded call returned, one while
 * each is in flight, one at each step boundary, in the order the baseline met them.
 */
export interface PlannedCell {
  id: string;
  crash: CrashAt;
  /** "after POST api.test/notes #1 returned", for the report. */
  label: string;
}

export interface Narrowing {
  /** Only calls whose `host/path` contains one of these. */
  calls?: string[];
  /** Only steps with these names. */
  steps?: string[];
  maxCells?: number;
}

export function deriveCells(baseline: readonly WorkerEvent[]): PlannedCell[] {
  const cells: PlannedCell[] = [];
  const calls = callsOf(baseline);
  const byTime: { t: number; cells: PlannedCell[] }[] = [];
  for (const c of calls) {
    const name = `${c.key} #${c.occurrence}`;
    const slug = `${c.method.toLowerCase()}-${(c.host + c.path).replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}-${c.occurrence}`;
    const entries: PlannedCell[] = [
      {
        id: `in-flight-${slug}`,
        crash: { at: 'in-flight', call: c.key, occurrence: c.occurrence },
        label: `while ${name} is in flight`,
      },
    ];
    if (c.response) {
      entries.push({
        id: `after-${slug}`,
        crash: { at: 'after-call', call: c.key, occurrence: c.occurrence },
        label: `after ${name} returned`,
      });
    }
    byTime.push({ t: c.sentAt, cells: entries });
  }
  for (const ev of baseline) {
    if (ev.e !== 'step') continue;
    const slug = `${ev.name.replace(/[^a-z0-9]+/gi, '-')}-${ev.occurrence}`;
    byTime.push({
      t: ev.t,
      cells: [
        {
          id: `step-${slug}`,
          crash: { at: 'step', step: ev.name, occurrence: ev.occurrence },
          label: `as step ${ev.name} #${ev.occurrence} begins`,
        },
      ],
    });
  }
  byTime.sort((x, y) => x.t - y.t);
  for (const group of byTime) cells.push(...group.cells);
  return cells;
}

/** `name#n`: the name, and the occurrence when one is given. */
function target(want: string): { name: string; occurrence: number | null } {
  const m = /^(.*)#(\d+)$/.exec(want);
  return m ? { name: m[1]!, occurrence: Number(m[2]) } : { name: want, occurrence: null };
}

/**
 * `--calls` and `--steps` keep the cells they name (either: the union), each at one occurrence when
 * it ends in `#n`; `--max-cells` keeps that many, spread evenly over the run so that its start,
 * middle and end are all tried.
 */
export function narrow(cells: readonly PlannedCell[], n: Narrowing): PlannedCell[] {
  let kept = [...cells];
  if (n.calls?.length || n.steps?.length) {
    const calls = (n.calls ?? []).map(target);
    const steps = (n.steps ?? []).map(target);
    const at = (want: { occurrence: number | null }, occurrence: number) =>
      want.occurrence === null || want.occurrence === occurrence;
    kept = kept.filter(({ crash: c }) =>
      c.at === 'step'
        ? steps.some((w) => w.name === c.step && at(w, c.occurrence))
        : calls.some((w) => c.call.split(' ')[1]!.includes(w.name) && at(w, c.occurrence)),
    );
  }
  const max = n.maxCells;
  if (max !== undefined && kept.length > max) {
    const last = kept.length - 1;
    kept = Array.from({ length: max }, (_, i) => kept[max === 1 ? 0 : Math.round((i * last) / (max - 1))]!);
  }
  return kept;
}
