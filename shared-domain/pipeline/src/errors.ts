/**
 * Two kinds of failure, because retry policy depends on nothing else:
 * a transient failure (429, 503, timeout, dropped connection) may succeed if tried again;
 * a permanent one (422, 404, invalid input) never will, and retrying it only delays the dead letter.
 * Both runtimes map these classes onto their own retry machinery by `name`, so the check
 * survives serialisation boundaries (Temporal activity failures, LangGraph RetryPolicy.retryOn).
 */
export class TransientError extends Error {
  override readonly name = 'TransientError';
  constructor(
    message: string,
    readonly code: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export class PermanentError extends Error {
  override readonly name = 'PermanentError';
  constructor(
    message: string,
    readonly code: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export function isTransient(err: unknown): boolean {
  return err instanceof Error && err.name === 'TransientError';
}

export function isPermanent(err: unknown): boolean {
  return err instanceof Error && err.name === 'PermanentError';
}
