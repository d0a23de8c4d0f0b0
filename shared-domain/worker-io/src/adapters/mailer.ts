import type { Mailer } from '@vendor-review/pipeline';
import { postForReceipt } from './receipts.ts';

export function httpMailer(baseUrl: string, opts: { timeoutMs?: number } = {}): Mailer {
  const url = `${baseUrl.replace(/\/+$/, '')}/mail/send`;
  return { send: (mail, meta) => postForReceipt(url, mail, meta, opts.timeoutMs ?? 10_000) };
}
