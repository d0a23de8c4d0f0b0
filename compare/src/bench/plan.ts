/**
 * How much of each measurement a run of `pnpm bench` takes. `quick` (the default) fits in a few
 * minutes on two cores; `full` adds 64 concurrent reviews, more runs and kills per figure, and
 * the harness's own wall time; `smoke` is the same code on the smallest inputs, for CI: it proves
 * the bench still runs and its output keeps its shape, and its figures mean nothing.
 */
export type Preset = 'smoke' | 'quick' | 'full';
export const PRESETS: readonly Preset[] = ['smoke', 'quick', 'full'];

export type SectionName = 'per-step' | 'throughput' | 'storage' | 'recovery' | 'harness';
export const SECTIONS: readonly SectionName[] = ['per-step', 'throughput', 'storage', 'recovery', 'harness'];

export interface Plan {
  preset: Preset;
  /** Requirements of the review the per-step and throughput figures run (the crash cells' three). */
  requirements: number;
  perStep: { runs: number; warmup: number };
  units: { commits: number; activityChains: number; chainLength: number };
  throughput: { concurrency: number[]; processes: number[]; variants: ('naive' | 'hardened')[] };
  storage: { requirements: number[]; widePages: boolean };
  recovery: {
    kills: number;
    leaseTtlMs: number[];
    heartbeatMs: number[];
    stickyMs: number[];
    /** The false-takeover sweep: settings, and runs per setting on a loaded machine. */
    loadedLeaseTtlMs: number[];
    loadedHeartbeatMs: number[];
    loadedRuns: number;
    burners: number;
  };
  sections: SectionName[];
}

export function planFor(preset: Preset, cpus: number): Plan {
  const burners = Math.max(2, cpus * 2);
  switch (preset) {
    case 'smoke':
      return {
        preset,
        requirements: 1,
        perStep: { runs: 2, warmup: 0 },
        units: { commits: 20, activityChains: 2, chainLength: 3 },
        throughput: { concurrency: [1, 2], processes: [1], variants: ['hardened'] },
        storage: { requirements: [1, 2, 3], widePages: false },
        recovery: {
          kills: 1,
          leaseTtlMs: [1000],
          heartbeatMs: [1000],
          stickyMs: [],
          loadedLeaseTtlMs: [1000],
          loadedHeartbeatMs: [],
          loadedRuns: 1,
          burners: 1,
        },
        sections: ['per-step', 'throughput', 'storage', 'recovery'],
      };
    case 'quick':
      return {
        preset,
        requirements: 3,
        perStep: { runs: 8, warmup: 1 },
        units: { commits: 300, activityChains: 5, chainLength: 15 },
        throughput: { concurrency: [1, 8], processes: [1, 2], variants: ['hardened'] },
        storage: { requirements: [5, 10, 20], widePages: false },
        recovery: {
          kills: 2,
          leaseTtlMs: [1000, 3000],
          heartbeatMs: [1000, 2000],
          stickyMs: [1000],
          loadedLeaseTtlMs: [1000, 3000],
          loadedHeartbeatMs: [500, 1000],
          loadedRuns: 6,
          burners,
        },
        sections: ['per-step', 'throughput', 'storage', 'recovery'],
      };
    case 'full':
      return {
        preset,
        requirements: 3,
        perStep: { runs: 30, warmup: 3 },
        units: { commits: 1000, activityChains: 15, chainLength: 30 },
        throughput: { concurrency: [1, 8, 64], processes: [1, 2], variants: ['naive', 'hardened'] },
        storage: { requirements: [5, 10, 20], widePages: true },
        recovery: {
          kills: 5,
          leaseTtlMs: [1000, 3000, 10_000],
          heartbeatMs: [1000, 2000, 5000, 10_000],
          stickyMs: [1000, 5000, 10_000],
          loadedLeaseTtlMs: [500, 1000, 2000, 3000],
          loadedHeartbeatMs: [500, 1000, 2000],
          loadedRuns: 12,
          burners,
        },
        sections: ['per-step', 'throughput', 'storage', 'recovery', 'harness'],
      };
  }
}
