import type { LedgerEntry } from '@vendor-review/world';

/** What the world saw, reduced to what the crash assertions ask: which operations happened more than once, and how. */
export interface LedgerView {
  entries: LedgerEntry[];
  /** opKey → outcomes in order, only for opKeys seen more than once. */
  repeated: Record<string, string[]>;
  count(kind: LedgerEntry['kind'], outcome?: LedgerEntry['outcome']): number;
}

export function viewLedger(entries: LedgerEntry[]): LedgerView {
  const byOp = new Map<string, string[]>();
  for (const e of entries) byOp.set(e.opKey, [...(byOp.get(e.opKey) ?? []), e.outcome]);
  return {
    entries,
    repeated: Object.fromEntries([...byOp].filter(([, outcomes]) => outcomes.length > 1)),
    count: (kind, outcome) => entries.filter((e) => e.kind === kind && (!outcome || e.outcome === outcome)).length,
  };
}
