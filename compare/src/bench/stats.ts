/**
 * A figure that varies is reported as its distribution over runs, never as one sample: median
 * and p95 (nearest rank), with the extremes and the count beside them.
 */
export interface Summary {
  n: number;
  median: number;
  p95: number;
  min: number;
  max: number;
}

function quantile(sorted: number[], q: number): number {
  // Nearest rank: an observed value, not an interpolation between two.
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[rank - 1]!;
}

export function summarize(xs: readonly number[]): Summary | null {
  if (!xs.length) return null;
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  const median = sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { n: sorted.length, median, p95: quantile(sorted, 0.95), min: sorted[0]!, max: sorted.at(-1)! };
}

/** Rounded for JSON: microseconds and milliseconds to one decimal are plenty. */
export function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

export function roundSummary(s: Summary | null): Summary | null {
  return s && { n: s.n, median: round1(s.median), p95: round1(s.p95), min: round1(s.min), max: round1(s.max) };
}

/** Least squares fit of y = a + b·x + c·x² (c = 0 when `degree` is 1). */
export function polyfit(points: readonly [number, number][], degree: 1 | 2): number[] {
  const m = degree + 1;
  const ata = Array.from({ length: m }, () => new Array<number>(m).fill(0));
  const aty = new Array<number>(m).fill(0);
  for (const [x, y] of points) {
    const row = Array.from({ length: m }, (_, i) => x ** i);
    for (let i = 0; i < m; i++) {
      aty[i]! += row[i]! * y;
      for (let j = 0; j < m; j++) ata[i]![j]! += row[i]! * row[j]!;
    }
  }
  // Gaussian elimination on the normal equations (a 3×3 at most).
  for (let i = 0; i < m; i++) {
    let p = i;
    for (let r = i + 1; r < m; r++) if (Math.abs(ata[r]![i]!) > Math.abs(ata[p]![i]!)) p = r;
    [ata[i], ata[p]] = [ata[p]!, ata[i]!];
    [aty[i], aty[p]] = [aty[p]!, aty[i]!];
    const d = ata[i]![i]!;
    if (Math.abs(d) < 1e-12) return degree === 2 ? [...polyfit(points, 1), 0] : [points[0]?.[1] ?? 0, 0];
    for (let r = 0; r < m; r++) {
      if (r === i) continue;
      const f = ata[r]![i]! / d;
      for (let c = i; c < m; c++) ata[r]![c]! -= f * ata[i]![c]!;
      aty[r]! -= f * aty[i]!;
    }
  }
  const coef = aty.map((v, i) => v / ata[i]![i]!);
  return degree === 2 ? coef : [...coef, 0];
}

export const evaluate = (coef: readonly number[], x: number) => coef.reduce((s, c, i) => s + c * x ** i, 0);

/** The smallest x ≥ 1 at which the fitted curve reaches `limit`, or null when it never does (within 1e7). */
export function crossing(coef: readonly number[], limit: number): number | null {
  if (evaluate(coef, 1) >= limit) return 1;
  let hi = 2;
  while (evaluate(coef, hi) < limit) {
    hi *= 2;
    if (hi > 1e7) return null;
  }
  let lo = hi / 2;
  while (hi - lo > 0.5) {
    const mid = (lo + hi) / 2;
    if (evaluate(coef, mid) >= limit) hi = mid;
    else lo = mid;
  }
  return Math.ceil(lo);
}
