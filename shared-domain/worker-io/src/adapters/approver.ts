import type { Approver } from '@vendor-review/pipeline';
import { postForReceipt } from './receipts.ts';

export function httpApprover(baseUrl: string, opts: { timeoutMs?: number } = {}): Approver {
  const url = `${baseUrl.replace(/\/+$/, '')}/approver/notify`;
  return { notify: (request, meta) => postForReceipt(url, request, meta, opts.timeoutMs ?? 10_000) };
}
