/**
 * A seeded random stream, so that a campaign is a function of its seed: the same seed gives the same
 * runs, the same armed crash points and the same strikes in the same order. Every purpose draws from
 * a stream of its own (`fork`), so one more draw in one place never shifts another: run 17's plan is
 * the same whether the campaign has 20 runs or 500, and the kill strikes do not move when the pause
 * rate changes.
 */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [lo, hi], both included. */
  int(lo: number, hi: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** An exponential gap with this mean: the time to the next event of a Poisson process. */
  exponential(mean: number): number;
  /** An independent stream for a sub-purpose ("run/17", "strikes/kill"). */
  fork(label: string): Rng;
}

/** FNV-1a, then a murmur finaliser so that seeds differing in one character start far apart. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export function seededRng(seed: string, label = 'root'): Rng {
  // mulberry32: tiny, fast, and good enough to spread faults; nothing here is cryptographic.
  let state = hash32(`${seed}\u0000${label}`);
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)]!;
    },
    exponential: (mean) => -Math.log(1 - next()) * mean,
    fork: (sub) => seededRng(seed, `${label}/${sub}`),
  };
}
