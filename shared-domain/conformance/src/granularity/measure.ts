import type { DurableRecord } from '../adapter.ts';
import type { LedgerEntry } from '@vendor-review/world';
import { computeEvidence, executed } from '../evidence.ts';
import type { CellObservation } from '../observation.ts';

/**
 * The figures of one granularity cell, all from outside the workers: what repeated and what it
 * cost from the world's ledger (against the uncrashed run of the same runtime and granularity), how
 * much the runtime wrote from its durable record, and the time between the run's calls to the world.
 */
export interface GranularityFigures {
  /** Model calls made more often than in the uncrashed run (paid twice). Null for the uncrashed run. */
  repeatedModelCalls: number | null;
  /** Every operation made more often than in the uncrashed run, by kind ("web+4 model+3 tracker+3"). */
  repeatedByKind: Record<string, number>;
  extraCostUsd: number | null;
  recoveryMs: number | null;
  /** Checkpoints (LangGraph) or history events (Temporal) the run's record holds at the end. */
  durableRecords: number | null;
  bytesStored: number | null;
  /** From the run's first call to the world to the end of its last one. */
  wallMs: number | null;
  /** How long the world was busy answering the run (overlapping calls counted once). */
  worldMs: number | null;
  /** wallMs − worldMs: the time spent between calls, on boundaries and bookkeeping (uncrashed runs only). */
  overheadMs: number | null;
}

/** What the runtime wrote: checkpoints, or history events; pending writes are in the bytes, not the count. */
export function durableRecordCount(record: DurableRecord | null): number | null {
  if (!record || record.kind === 'none') return null;
  return record.marks.filter((m) => (record.kind === 'checkpoints' ? m.kind === 'checkpoint' : m.kind === 'event'))
    .length;
}

/** First call to last answer, and the part of it the world spent answering (intervals merged). */
export function callTimes(ledger: readonly LedgerEntry[]): { wallMs: number; worldMs: number } | null {
  const spans = executed(ledger)
    .map((e) => [e.at, e.at + e.durationMs] as const)
    .sort((a, b) => a[0] - b[0]);
  if (!spans.length) return null;
  let worldMs = 0;
  let [from, to] = spans[0]!;
  for (const [s, e] of spans.slice(1)) {
    if (s > to) {
      worldMs += to - from;
      [from, to] = [s, e];
    } else to = Math.max(to, e);
  }
  worldMs += to - from;
  const wallMs = Math.max(...spans.map((s) => s[1])) - spans[0]![0];
  return { wallMs, worldMs };
}

export function measureGranularityCell(obs: CellObservation, uncrashed: CellObservation | null): GranularityFigures {
  const crashed = obs.scenario.crashPoint !== null;
  const times = crashed ? null : callTimes(obs.ledger);
  const e = crashed && uncrashed ? computeEvidence(obs, uncrashed) : null;
  const repeatedByKind: Record<string, number> = {};
  for (const r of e?.repeated ?? []) repeatedByKind[r.kind] = (repeatedByKind[r.kind] ?? 0) + r.count - r.baselineCount;
  return {
    repeatedModelCalls: e ? (repeatedByKind.model ?? 0) : null,
    repeatedByKind,
    extraCostUsd: e ? e.extraCostUsd : null,
    recoveryMs: e ? e.recoveryMs : null,
    durableRecords: durableRecordCount(obs.durableFinal),
    bytesStored: obs.durableFinal?.bytes ?? null,
    wallMs: times?.wallMs ?? null,
    worldMs: times?.worldMs ?? null,
    overheadMs: times ? times.wallMs - times.worldMs : null,
  };
}
