import type { WindowFigures } from './window-figures.ts';
import type { HarnessSection } from './harness.ts';
import type { Machine, Versions } from './machine.ts';
import type { PerStepSection } from './per-step.ts';
import type { Preset, SectionName } from './plan.ts';
import type { RecoverySection } from './recovery.ts';
import type { Summary } from './stats.ts';
import type { StorageSection } from './storage.ts';
import type { ThroughputCell } from './throughput.ts';
import type { Units } from './units.ts';

/**
 * bench.json, and what `pnpm bench --json` prints: every section as measured, and beside them the
 * same figures by runtime and mode (`runtimes.langgraph.hardened.perStepUs` …), the shape a reader
 * looks a number up by. Every figure comes from this one invocation.
 */
export interface BenchReport {
  meta: {
    startedAt: string;
    finishedAt: string;
    wallTimeMs: number;
    preset: Preset;
    /** The instrument's call sites were laid over the bench's process (--instrument). */
    instrumented: boolean;
    sections: SectionName[];
    /** Wall time of each section. */
    sectionMs: Partial<Record<SectionName | 'infrastructure' | 'units', number>>;
    machine: Machine;
    versions: Versions;
    infrastructure: { world: string; postgres: string; servers: string[]; built: string[] };
    world: { modelLatencyMs: number; pageLatencyMs: number };
    /** Each runtime in the figures (the floor too) as its module and bench name it. */
    benched: Record<string, BenchedFacts>;
  };
  /** One PostgreSQL commit of a small row, µs: the unit most overheads are stated in. */
  pgCommitUs: Summary | null;
  units: Units | null;
  runtimes: Record<string, Record<string, ModeFigures>>;
  perStep: PerStepSection | null;
  throughput: ThroughputCell[] | null;
  storage: StorageSection | null;
  recovery: RecoverySection | null;
  harness: HarnessSection | null;
  /** Time to durable from the window suite's last results, beside the cost per step; null without them. */
  window?: WindowFigures | null;
}

/** What the tables, charts and findings say of a runtime, from its module and its bench. */
export interface BenchedFacts {
  title: string;
  colour: string;
  /** The unit its overheads are stated in: the PostgreSQL commit (`key` null), or its own (a key of `overheadInUnits`). */
  unit: { key: string | null; one: string; plural: string };
  knobs: { name: string; label: string; phrase: string }[];
}

export interface ModeFigures {
  label?: string;
  perStepUs?: { median: number; p95: number } | null;
  overheadInCommits?: number | null;
  ourShare?: number | null;
  throughput?: {
    concurrency: number;
    processes: number;
    reviewsPerSecond: number | null;
    cpuSecondsPerReview: number | null;
    pgCommitsPerReview: number | null;
    historyEventsPerReview: number | null;
  }[];
  /** Bytes a finished run leaves stored, by its number of requirements. */
  bytesPerRun?: Record<string, number>;
  /** Crash → progress by the setting swept (lease TTL, heartbeat or sticky timeout, in ms). */
  recoveryMs?: { knob: string; value: number; median: number; p95: number }[];
}

/** The per-section figures, regrouped by runtime and mode. */
export function byRuntime(r: Omit<BenchReport, 'runtimes'>): BenchReport['runtimes'] {
  const out: BenchReport['runtimes'] = {};
  const at = (runtime: string, mode: string): ModeFigures => ((out[runtime] ??= {})[mode] ??= {});
  for (const row of r.perStep?.rows ?? []) {
    const m = at(row.runtime, row.mode);
    m.label = row.label;
    m.perStepUs = row.perStepUs ? { median: row.perStepUs.median, p95: row.perStepUs.p95 } : null;
    m.overheadInCommits = row.overheadInCommits;
    m.ourShare = row.ourShare;
  }
  for (const c of r.throughput ?? [])
    (at(c.runtime, c.mode).throughput ??= []).push({
      concurrency: c.concurrency,
      processes: c.processes,
      reviewsPerSecond: c.reviewsPerSecond,
      cpuSecondsPerReview: c.cpuSecondsPerReview.total,
      pgCommitsPerReview: c.pgCommitsPerReview,
      historyEventsPerReview: c.historyEventsPerReview,
    });
  for (const c of r.storage?.cells ?? []) {
    if (!c.ok) continue;
    const key = c.pagesPerRequirement ? `${c.requirements}x${c.pagesPerRequirement}pages` : String(c.requirements);
    (at(c.runtime, c.mode).bytesPerRun ??= {})[key] = c.bytes;
  }
  for (const p of r.recovery?.points ?? [])
    if (p.recoveryMs)
      (at(p.runtime, 'hardened').recoveryMs ??= []).push({
        knob: p.knob,
        value: p.value,
        median: p.recoveryMs.median,
        p95: p.recoveryMs.p95,
      });
  return out;
}
