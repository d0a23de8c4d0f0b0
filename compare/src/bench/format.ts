import type { Summary } from './stats.ts';

/** Number formats shared by the tables, findings and charts. */
export function us(n: number | null | undefined): string {
  if (n === null || n === undefined) return '—';
  if (Math.abs(n) >= 10_000) return `${(n / 1000).toFixed(1)} ms`;
  if (Math.abs(n) >= 1000) return `${(n / 1000).toFixed(2)} ms`;
  return `${Math.round(n)} µs`;
}

export function ms(n: number | null | undefined): string {
  if (n === null || n === undefined) return '—';
  if (n >= 100_000) return `${Math.round(n / 1000)} s`;
  if (n >= 10_000) return `${(n / 1000).toFixed(1)} s`;
  return n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${Math.round(n)} ms`;
}

export function bytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return '—';
  if (n >= 1024 ** 3) return `${(n / 1024 ** 3).toFixed(2)} GiB`;
  if (n >= 1024 ** 2) return `${(n / 1024 ** 2).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${Math.round(n)} B`;
}

export function times(n: number | null | undefined): string {
  return n === null || n === undefined ? '—' : `×${n < 10 ? n.toFixed(1) : Math.round(n)}`;
}

export function pct(n: number | null | undefined): string {
  return n === null || n === undefined ? '—' : `${n >= 0 ? '+' : ''}${Math.round(n * 100)} %`;
}

export function num(n: number | null | undefined, digits = 1): string {
  return n === null || n === undefined ? '—' : n.toFixed(digits);
}

/** median (p95) for timings; "median (min–max)" when there are too few samples for a p95 to mean anything. */
export function spread(s: Summary | null | undefined, unit: (n: number) => string): string {
  if (!s) return '—';
  if (s.n === 1) return unit(s.median);
  return s.n >= 10 ? `${unit(s.median)} (p95 ${unit(s.p95)})` : `${unit(s.median)} (${unit(s.min)}–${unit(s.max)})`;
}
