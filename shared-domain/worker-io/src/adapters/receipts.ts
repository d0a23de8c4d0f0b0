import type { CallMeta, Receipt } from '@vendor-review/pipeline';
import { metaHeaders } from './headers.ts';
import { errorForNetwork, errorForStatus } from './http-errors.ts';

/** POST a JSON side effect and read back its receipt; the receiver says "replayed" when the key matched an earlier call. */
export async function postForReceipt(
  url: string,
  payload: unknown,
  meta: CallMeta,
  timeoutMs: number,
): Promise<Receipt> {
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...metaHeaders(meta) },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(timeoutMs),
    });
    text = await res.text();
  } catch (err) {
    throw errorForNetwork(err, `POST ${url}`);
  }
  if (!res.ok) throw errorForStatus(res.status, `POST ${url}`, text);
  const id = (JSON.parse(text) as { id?: unknown }).id;
  if (typeof id !== 'string') throw errorForStatus(502, `POST ${url}`, 'receipt without an id');
  return { id, duplicate: res.headers.get('idempotent-replayed') === 'true' };
}
