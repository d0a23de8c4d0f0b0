import { WINDOW_STEP_POINTS, WINDOW_STEPS, type DurableQuartiles } from '@vendor-review/conformance';
import type { Column, Row, Section } from './document.ts';
import type { RuntimeLook } from './svg.ts';
import { renderWindowChart } from './window-chart.ts';
import { lineLabel, notKept, realDelays, spread, windowLines, type WindowLine, type WindowRow } from './window-rows.ts';

/**
 * The window suite as a report section: per step, a chart (HTML) and a table with one line per
 * runtime configuration, the runs that ran the finished step again at each delay tried, and its
 * time to durable: the smallest delay from which no run did, with the runs behind it.
 */
export const WINDOW_LESSON =
  "A step is not safe when its work ends but once the runtime has kept its result: a kill inside that window runs the finished step again (and pays for it again), however durable the runtime. The window is each runtime's commit, measured.";

/** Time to durable: where half the runs stopped keeping the step on the real delays, then `closedText`. */
export function durableText(l: WindowLine): string {
  const real = l.rows[0]!.figures.onRealDelays;
  const closed = closedText(l);
  return real.halfMs !== null ? `half ${ms(real.halfMs)}${quartilesText(real)} · ${closed}` : closed;
}

/** Between the latest real delay that still re-ran the step and the earliest after which every run kept it. */
export function closedText(l: WindowLine): string {
  if (l.rows.every((r) => r.judged === 0) && l.rows.some((r) => r.lost)) return 'never: the run was lost';
  if (!l.durable) {
    const latest = Math.max(0, ...l.rows.flatMap(realDelays));
    return `> ${latest.toFixed(1)} ms`;
  }
  const { ms: from, lastRerunMs, keptLater } = l.durable;
  return `${lastRerunMs.toFixed(1)}–${from.toFixed(1)} ms · ${keptLater} kept`;
}

const ms = (x: number | null) => (x === null ? '—' : `${Number(x.toFixed(1))}`);

const quartilesText = (q: DurableQuartiles) =>
  q.threeQuartersMs !== null && q.quarterMs !== null ? ` (quartiles ${ms(q.threeQuartersMs)}–${ms(q.quarterMs)})` : '';

/** The series' window in the delays asked, from its figures (results.json's, conformance's windowSeriesFigures). */
export function figuresText(l: WindowLine): string {
  const f = l.rows[0]!.figures;
  return `last ${ms(f.lastRerunMs)} · none from ${ms(f.noneFromMs)} · half ${ms(f.halfMs)}${quartilesText(f)}`;
}

/** The first checkpoint's own columns: the run held when worker A died, and a second run made by the retried start. */
function startText(l: WindowLine): string {
  const counted = l.rows.filter((r) => r.startRuns);
  if (!counted.length) return '—';
  const of = counted.reduce((n, r) => n + r.outcomes.filter((o) => o.start).length, 0);
  const existed = counted.reduce((n, r) => n + r.startRuns!.existed, 0);
  const second = counted.reduce((n, r) => n + r.startRuns!.secondRuns, 0);
  return `held ${existed}/${of} · 2nd run ${second}/${of}`;
}

const pct = (x: number) => `${Math.round(x * 100)} %`;

/** How late the timers fired and how busy the machine was over the δs, over every run given. */
export function timerText(rows: readonly WindowRow[]): string {
  const runs = rows.flatMap((r) => r.outcomes);
  const late = spread(runs.map((o) => o.lateMs));
  const busy = spread(runs.map((o) => o.cpuBusy));
  return `timer late ${late ? `median ${late.median.toFixed(2)} ms, max ${late.max.toFixed(2)} ms (${late.n} runs)` : '—'}; CPU busy over δ ${busy ? `median ${pct(busy.median)}, max ${pct(busy.max)} (${busy.n} runs)` : '— (no /proc/stat, or no tick in δ)'}`;
}

const range = (xs: number[]) =>
  xs.length ? `${xs[0]!.toFixed(1)}${xs.length > 1 ? `–${xs.at(-1)!.toFixed(1)}` : ''} ms` : 'none judged';

function table(lines: WindowLine[]) {
  const delays = [...new Set(lines.flatMap((l) => l.rows.map((r) => r.delayMs)))].sort((a, b) => a - b);
  const start = lines.some((l) => l.step === 'start');
  const columns: Column[] = [
    { title: 'runtime configuration', width: 22 },
    ...delays.map((d) => ({ title: `+${d}`, numeric: true, width: 5 })),
    { title: 'not kept, asked δ (ms)', width: 56 },
    ...(start ? [{ title: 'start retried', width: 26 }] : []),
    { title: 'time to durable', width: 60 },
  ];
  const rows: Row[] = lines.map((l) => ({
    data: { series: l.id },
    cells: [
      lineLabel(l),
      ...delays.map((d) => {
        const r = l.rows.find((x) => x.delayMs === d);
        if (!r) return '';
        return {
          text: r.lost === r.runs ? 'lost' : notKept(r) ? `${notKept(r)!.count}/${notKept(r)!.of}` : '✗',
          tone: r.lost || r.reran ? ('bad' as const) : r.judged === 0 ? ('warn' as const) : ('ok' as const),
          hover: `asked +${d} ms${r.lost ? `; ${r.lost} of ${r.runs} run(s) lost` : ''}; died ${range(realDelays(r))} after the step's end${r.judged < r.runs ? `; ${r.runs - r.judged} run(s) not judged: ${r.outcomes.find((o) => o.reran === null)?.why ?? ''}` : ''}; ${timerText([r])}`,
        };
      }),
      figuresText(l),
      ...(start ? [startText(l)] : []),
      l.durable ? durableText(l) : { text: durableText(l), tone: 'bad' as const },
    ],
  }));
  return { class: 'window', columns, rows };
}

/** What the rows show, per step: each configuration's time to durable, computed, never canned. */
export function windowSeen(lines: WindowLine[]): string[] {
  return WINDOW_STEPS.flatMap((step) => {
    const mine = lines.filter((l) => l.step === step);
    if (!mine.length) return [];
    return [
      `${WINDOW_STEP_POINTS[step].title}: ${mine.map((l) => `${lineLabel(l)} ${durableText(l)}`).join(', ')}; ${timerText(mine.flatMap((l) => l.rows))}.`,
    ];
  });
}

export function windowSection(rows: WindowRow[], looks: readonly RuntimeLook[], o: { level?: 1 | 2 } = {}): Section {
  const lines = windowLines(rows);
  const runs = rows.reduce((n, r) => n + r.runs, 0);
  return {
    heading: 'The commit window: how long after a step finishes is it safe',
    textHeading: `window — how long after a step finishes a kill still runs it again (${runs} runs)`,
    id: 'window',
    level: o.level ?? 2,
    blocks: [
      { kind: 'paragraph', style: 'lesson', text: WINDOW_LESSON },
      ...WINDOW_STEPS.filter((step) => lines.some((l) => l.step === step)).flatMap((step) => [
        {
          kind: 'paragraph' as const,
          text: `**${WINDOW_STEP_POINTS[step].title}** (${WINDOW_STEP_POINTS[step].where})`,
        },
        { kind: 'chart' as const, only: ['html' as const], html: renderWindowChart(lines, step, looks) },
        { kind: 'table' as const, table: table(lines.filter((l) => l.step === step)) },
      ]),
      { kind: 'list', items: windowSeen(lines) },
      {
        kind: 'paragraph',
        style: 'note',
        tone: 'muted',
        text: '+δ: worker A was killed δ ms after the step’s work ended (0: at once, before the step returned; the first checkpoint: after the call that starts the run began, in the process that made it), then worker B resumed the run; each cell is the runs in which the finished step’s own call reached the world again, of the runs judged; a run the resumer could not go on with at all (nothing durable) counts as not kept, and “lost” means every run was. The delay as it really was, how late the timer fired and how busy the machine was over it are in each cell’s hover and on the chart. Each measured worker A ran, from its start to its kill, with no other cell’s worker or harness work beside it (the servers and PostgreSQL are shared). not kept, asked δ: the series’ figures in results.json, on the delays asked: the last at which a run did not keep the step, the first from which none failed to, and where half stopped keeping it, with the quartiles around it (where three quarters and one quarter still had not; the shares made non-increasing first: — : none, or not within what was tried). start retried (the first checkpoint): runs whose run the runtime held when worker A died, and runs in which worker B’s start with the same id made a second run. time to durable, on the real delays (each run where its worker really died, so that a timer that fired late moves it less): where half stopped keeping the step, with the quartiles, read as in the column before; then between the latest real delay at which a run still re-ran it and the earliest after which every run kept it, with the runs killed from then on; “>”: the latest kill still re-ran it.',
      },
    ],
  };
}
