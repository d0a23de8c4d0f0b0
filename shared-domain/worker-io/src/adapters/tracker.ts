import type { Tracker } from '@vendor-review/pipeline';
import { postForReceipt } from './receipts.ts';

export function httpTracker(baseUrl: string, opts: { timeoutMs?: number } = {}): Tracker {
  const url = `${baseUrl.replace(/\/+$/, '')}/tracker/notes`;
  return { note: (note, meta) => postForReceipt(url, note, meta, opts.timeoutMs ?? 10_000) };
}
