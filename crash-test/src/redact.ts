import { createHash } from 'node:crypto';
import type { Usage } from './events.ts';

/**
 * What of a call may be written down. Request bodies are kept only as a hash, header values only
 * where they cannot be a credential: authorization, API keys, cookies and anything named like a
 * token or secret are `[redacted]`, in the recording and so in every report made from it.
 */
const SECRET_HEADER =
  /^(authorization|proxy-authorization|cookie|set-cookie)$|api[-_]?key|token|secret|password|signature/i;
const IDEMPOTENCY_HEADER = /idempotency|idempotent/i;
/** Headers the interception layer or the transport adds, never the app. */
const INTERNAL_HEADER = /^x-interceptors-/i;

export function redactHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (INTERNAL_HEADER.test(name)) return;
    out[name] = SECRET_HEADER.test(name) ? '[redacted]' : value;
  });
  return out;
}

export function carriesIdempotencyKey(headers: Headers): boolean {
  let found = false;
  headers.forEach((_v, name) => {
    if (IDEMPOTENCY_HEADER.test(name)) found = true;
  });
  return found;
}

export function bodyHash(body: ArrayBuffer): string {
  return createHash('sha256').update(Buffer.from(body)).digest('hex').slice(0, 16);
}

/**
 * Tokens where an answer says them: OpenAI's chat completions (`usage.prompt_tokens`,
 * `completion_tokens`), its Responses API and Anthropic's messages (`input_tokens`, `output_tokens`).
 */
export function usageOf(body: string): Usage | null {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return null;
  }
  if (!json || typeof json !== 'object') return null;
  const o = json as { usage?: Record<string, unknown>; model?: unknown };
  const u = o.usage;
  if (!u || typeof u !== 'object') return null;
  const n = (k: string): number | null => (typeof u[k] === 'number' ? u[k] : null);
  const input = n('prompt_tokens') ?? n('input_tokens');
  const output = n('completion_tokens') ?? n('output_tokens');
  if (input === null && output === null) return null;
  return { inputTokens: input ?? 0, outputTokens: output ?? 0, model: typeof o.model === 'string' ? o.model : null };
}
