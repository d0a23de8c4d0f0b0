import { WINDOW_DELAYS_MS } from './catalogue.ts';
import type { WindowOutcome } from './measure.ts';

/** What the runs at one δ of a series showed. */
export interface WindowPoint {
  delayMs: number;
  runs: number;
  /** Runs whose outcome could be judged (the run completed, worker A died at the point). */
  judged: number;
  reran: number;
  /** Runs the resumer could not go on with at all (nothing durable): worse than a step run again. */
  lost: number;
}

/** The runs at one δ, counted. */
export function windowPoint(delayMs: number, outcomes: readonly WindowOutcome[]): WindowPoint {
  return {
    delayMs,
    runs: outcomes.length,
    judged: outcomes.filter((x) => x.reran !== null).length,
    reran: outcomes.filter((x) => x.reran === true).length,
    lost: outcomes.filter((x) => x.lost).length,
  };
}

const clean = (p: WindowPoint) => p.judged > 0 && p.reran === 0 && p.lost === 0;
const DONE_AFTER_CLEAN = 2;
const MOST_REFINEMENTS = 2;

/** The smallest asked δ from which no judged run re-ran the step, at that δ and every larger one tried. */
function cleanFrom(points: readonly WindowPoint[]): number | null {
  const sorted = [...points].sort((a, b) => a.delayMs - b.delayMs);
  let from: number | null = null;
  for (let i = sorted.length - 1; i >= 0 && clean(sorted[i]!); i--) from = sorted[i]!.delayMs;
  return from;
}

/**
 * Where the share of runs not keeping the step falls through three quarters, one half and one
 * quarter: the quartiles of the time to durable. Read off the shares made non-increasing (a longer
 * delay never keeps less: adjacent delays that say otherwise are pooled, weighted by their runs),
 * linear between the delays. Null where no delay reached that share (below the smallest), or the
 * largest still did.
 */
export interface DurableQuartiles {
  threeQuartersMs: number | null;
  halfMs: number | null;
  quarterMs: number | null;
}

/**
 * A series' window, from the runs at each δ, as results.json and the report give it. A run that
 * did not keep the step ran it again or lost the run; only runs that say either way count (`of`).
 */
export interface WindowSeriesFigures extends DurableQuartiles {
  /** The largest δ at which a run did not keep the step; null when none did at any δ. */
  lastRerunMs: number | null;
  /** The smallest δ from which no run failed to keep it, at that δ and every larger one tried; null while the largest still did. */
  noneFromMs: number | null;
  /**
   * The quartiles this extends are in the delays asked; these are the same with each run at its
   * real delay, where its worker really died: a timer that fired late, under load, moves them less.
   */
  onRealDelays: DurableQuartiles;
  /** Every δ tried, rising: its runs, and of the runs that say, how many did not keep the step. */
  points: { delayMs: number; runs: number; of: number; notKept: number }[];
}

/** `runs`: the series' judged runs (and lost ones, which did not keep the step), for `onRealDelays`. */
export function windowSeriesFigures(
  points: readonly WindowPoint[],
  runs: readonly WindowRun[] = [],
): WindowSeriesFigures {
  const sorted = [...points].sort((a, b) => a.delayMs - b.delayMs);
  const counted = sorted.map((p) => ({
    delayMs: p.delayMs,
    runs: p.runs,
    of: p.judged + p.lost,
    notKept: p.reran + p.lost,
  }));
  const notKept = counted.filter((p) => p.notKept > 0);
  // Each run a point of its own; at equal delays the one that re-ran first, so a tie is not a violation.
  const eachRun = [...runs]
    .sort((a, b) => a.realDelayMs - b.realDelayMs || Number(b.reran) - Number(a.reran))
    .map((r) => ({ delayMs: r.realDelayMs, of: 1, notKept: r.reran ? 1 : 0 }));
  return {
    lastRerunMs: notKept.length ? notKept.at(-1)!.delayMs : null,
    noneFromMs: cleanFrom(points),
    ...durableQuartiles(counted),
    onRealDelays: durableQuartiles(eachRun),
    points: counted,
  };
}

function durableQuartiles(points: readonly { delayMs: number; of: number; notKept: number }[]): DurableQuartiles {
  const fit = nonIncreasing(points.filter((p) => p.of > 0));
  return {
    threeQuartersMs: fallsThrough(fit, 0.75),
    halfMs: fallsThrough(fit, 0.5),
    quarterMs: fallsThrough(fit, 0.25),
  };
}

/** The share not kept at each δ, pooled where a longer δ kept less (pool-adjacent-violators, weighted by runs). */
function nonIncreasing(points: readonly { delayMs: number; of: number; notKept: number }[]) {
  const blocks: { notKept: number; of: number; delays: number[] }[] = [];
  for (const p of points) {
    blocks.push({ notKept: p.notKept, of: p.of, delays: [p.delayMs] });
    while (blocks.length > 1) {
      const [a, b] = blocks.slice(-2) as [(typeof blocks)[number], (typeof blocks)[number]];
      if (a.notKept / a.of >= b.notKept / b.of) break;
      blocks.splice(-2, 2, { notKept: a.notKept + b.notKept, of: a.of + b.of, delays: [...a.delays, ...b.delays] });
    }
  }
  return blocks.flatMap((b) => b.delays.map((delayMs) => ({ delayMs, share: b.notKept / b.of })));
}

/** The δ at which the fitted share falls through `level`, linear between the last δ at or above it and the next. */
function fallsThrough(fit: readonly { delayMs: number; share: number }[], level: number): number | null {
  let last = -1;
  fit.forEach((p, i) => {
    if (p.share >= level) last = i;
  });
  if (last < 0 || last === fit.length - 1) return null;
  const [a, b] = [fit[last]!, fit[last + 1]!];
  return a.delayMs + ((a.share - level) / (a.share - b.share)) * (b.delayMs - a.delayMs);
}

/** One judged run: how late its worker really died, and whether the finished step ran again (or the run was lost). */
export interface WindowRun {
  realDelayMs: number;
  reran: boolean;
}

/**
 * Time to durable, on the real delays: the earliest death from which every later one kept the
 * step (`ms`, the smallest δ from which nothing re-ran), the latest death after which it still ran
 * again (`lastRerunMs`: 0 when none did; the window closed somewhere between the two), and the runs
 * killed from `ms` on. Null while the run killed latest still ran it again, or nothing was judged.
 */
export function timeToDurable(
  runs: readonly WindowRun[],
): { ms: number; lastRerunMs: number; keptLater: number } | null {
  const reruns = runs.filter((r) => r.reran).map((r) => r.realDelayMs);
  const lastRerunMs = reruns.length ? Math.max(...reruns) : null;
  const later = runs.filter((r) => lastRerunMs === null || r.realDelayMs > lastRerunMs);
  if (!later.length) return null;
  return { ms: Math.min(...later.map((r) => r.realDelayMs)), lastRerunMs: lastRerunMs ?? 0, keptLater: later.length };
}

/**
 * The next δs of a series: up the ladder until two in a row are clean (or it ends), then finer
 * where the outcome flips, between the largest δ that re-ran and the time to durable, while that gap
 * is wider than 1 ms. Empty: the series is done.
 */
export function nextDelays(points: readonly WindowPoint[], ladder: readonly number[] = WINDOW_DELAYS_MS): number[] {
  const tried = new Set(points.map((p) => p.delayMs));
  const onLadder = ladder.filter((d) => tried.has(d));
  if (!onLadder.length) return [ladder[0]!];
  const byDelay = new Map(points.map((p) => [p.delayMs, p]));
  const lastLadder = onLadder.slice(-DONE_AFTER_CLEAN);
  const climbing =
    !(lastLadder.length === DONE_AFTER_CLEAN && lastLadder.every((d) => clean(byDelay.get(d)!))) &&
    onLadder.at(-1) !== ladder.at(-1);
  if (climbing) return [ladder[ladder.indexOf(onLadder.at(-1)!) + 1]!];
  const durable = cleanFrom(points);
  if (durable === null) return [];
  const below = points.filter((p) => p.delayMs < durable && !clean(p)).map((p) => p.delayMs);
  if (!below.length || points.length - onLadder.length >= MOST_REFINEMENTS) return [];
  const low = Math.max(...below);
  const mid = low === 0 ? durable / 2 : Math.sqrt(low * durable);
  const d = Math.round(mid);
  return durable - low > 1 && d > low && d < durable && !tried.has(d) ? [d] : [];
}
