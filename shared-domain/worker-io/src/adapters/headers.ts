import type { CallMeta } from '@vendor-review/pipeline';

/** The headers every port sends: the world writes them into its ledger; a real service ignores the X-* ones. */
export function metaHeaders(meta: CallMeta): Record<string, string> {
  return {
    'X-Run-Id': meta.runId,
    'X-Step': meta.step,
    'X-Attempt': String(meta.attempt),
    ...(meta.worker ? { 'X-Worker': meta.worker } : {}),
    ...(meta.idempotencyKey ? { 'Idempotency-Key': meta.idempotencyKey } : {}),
  };
}
