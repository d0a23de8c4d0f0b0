import type { LedgerEntry } from '@vendor-review/world';
import type { RunHandle, RuntimeAdapter } from '../adapter.ts';
import type { Figure, HazardOutcome } from './types.ts';

/** A hazard's outcome with the run's durable record as it stands at the end (null where it cannot be read). */
export async function withRecord<H extends RunHandle>(
  adapter: RuntimeAdapter<H>,
  handle: H,
  o: { verdict: string; ledger: LedgerEntry[]; figures: Record<string, Figure>; note?: string | null },
): Promise<HazardOutcome> {
  return { ...o, runId: handle.runId, durable: await adapter.durableRecord(handle).catch(() => null) };
}
