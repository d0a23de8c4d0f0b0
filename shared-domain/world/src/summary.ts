import type { LedgerEntry, LedgerKind } from './ledger.ts';
import { sumCosts } from './pricing.ts';

export interface LedgerSummary {
  calls: Record<LedgerKind, number>;
  modelCalls: number;
  promptTokens: number;
  completionTokens: number;
  /** Null when a model's price is unknown. */
  costUsd: number | null;
  /** opKeys that reached the world more than once (faults and dedupes included), with how often. */
  repeatedOps: Record<string, number>;
  deduplicated: number;
  aborted: number;
  faults: number;
}

/** The numbers the comparison table needs from one run's ledger entries. */
export function summarizeLedger(entries: LedgerEntry[]): LedgerSummary {
  const calls: Record<LedgerKind, number> = { web: 0, model: 0, tracker: 0, mail: 0, approver: 0 };
  const ops = new Map<string, number>();
  let promptTokens = 0;
  let completionTokens = 0;
  for (const e of entries) {
    calls[e.kind] += 1;
    ops.set(e.opKey, (ops.get(e.opKey) ?? 0) + 1);
    promptTokens += e.promptTokens;
    completionTokens += e.completionTokens;
  }
  return {
    calls,
    modelCalls: calls.model,
    promptTokens,
    completionTokens,
    costUsd: sumCosts(entries.map((e) => e.costUsd)),
    repeatedOps: Object.fromEntries([...ops].filter(([, n]) => n > 1)),
    deduplicated: entries.filter((e) => e.outcome === 'deduplicated').length,
    aborted: entries.filter((e) => e.outcome === 'aborted').length,
    faults: entries.filter((e) => e.outcome === 'fault').length,
  };
}
