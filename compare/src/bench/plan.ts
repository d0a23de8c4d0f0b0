/**
 * How much of each measurement a run of `pnpm bench` takes. `quick` (the default) fits in a few
 * minutes on two cores; `full` adds 64 concurrent reviews, more runs and kills per figure, and
 * the harness's own wall time; `smoke` is the same code on the smallest inputs, for CI: it proves
 * the bench still runs and its output keeps its shape, and its figures mean nothing. What a
 * runtime sweeps (its unit's samples, its recovery settings) its bench sizes by the preset.
 */
import type { BenchPreset } from '@vendor-review/conformance';

export type Preset = BenchPreset;
export const PRESETS: readonly Preset[] = ['smoke', 'quick', 'full'];

export type SectionName = 'per-step' | 'throughput' | 'storage' | 'recovery' | 'harness';
export const SECTIONS: readonly SectionName[] = ['per-step', 'throughput', 'storage', 'recovery', 'harness'];

export interface Plan {
  preset: Preset;
  /** Requirements of the review the per-step and throughput figures run (the crash cells' three). */
  requirements: number;
  perStep: { runs: number; warmup: number };
  units: { commits: number };
  throughput: { concurrency: number[]; processes: number[]; variants: ('naive' | 'hardened')[] };
  storage: { requirements: number[]; widePages: boolean };
  recovery: {
    kills: number;
    /** The false-takeover sweep: runs per setting on a loaded machine. */
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
        units: { commits: 20 },
        throughput: { concurrency: [1, 2], processes: [1], variants: ['hardened'] },
        storage: { requirements: [1, 2, 3], widePages: false },
        recovery: {
          kills: 1,
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
        units: { commits: 300 },
        throughput: { concurrency: [1, 8], processes: [1, 2], variants: ['hardened'] },
        storage: { requirements: [5, 10, 20], widePages: false },
        recovery: {
          kills: 2,
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
        units: { commits: 1000 },
        throughput: { concurrency: [1, 8, 64], processes: [1, 2], variants: ['naive', 'hardened'] },
        storage: { requirements: [5, 10, 20], widePages: true },
        recovery: {
          kills: 5,
          loadedRuns: 12,
          burners,
        },
        sections: ['per-step', 'throughput', 'storage', 'recovery', 'harness'],
      };
  }
}
