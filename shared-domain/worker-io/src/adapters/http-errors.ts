import { PermanentError, TransientError } from '@vendor-review/pipeline';

/**
 * One classification for every HTTP port: worth retrying (rate limits, overload, timeouts,
 * dropped connections) or not (the request itself is wrong, or the thing is not there).
 */
export function errorForStatus(status: number, what: string, detail = ''): TransientError | PermanentError {
  const message = `${what} -> HTTP ${status}${detail ? `: ${detail.slice(0, 200)}` : ''}`;
  if (status === 408 || status === 409 || status === 425 || status === 429 || status >= 500)
    return new TransientError(message, `http-${status}`, status);
  return new PermanentError(message, `http-${status}`, status);
}

/** fetch() rejects with a TypeError whose cause carries the socket error code; timeouts are DOMExceptions. */
export function errorForNetwork(err: unknown, what: string): TransientError {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return new TransientError(`${what} timed out`, 'timeout');
  const code = e?.cause?.code ?? 'network';
  return new TransientError(
    `${what} failed: ${e?.cause?.message ?? e?.message ?? String(err)}`,
    code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' ? 'ECONNRESET' : code,
  );
}
