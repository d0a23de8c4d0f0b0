/**
 * A missing or unreachable piece of infrastructure. The message is one line that names the piece
 * and how to provide it, because it is what a newcomer sees first when `pnpm test` cannot start.
 */
export class InfraError extends Error {
  override readonly name = 'InfraError';
  constructor(message: string) {
    super(message.replace(/\s*\n\s*/g, ' ').trim());
  }
}

/** The short reason of a connection failure (`ECONNREFUSED`, a timeout, an auth error) on one line. */
export function reasonOf(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    const text = err.message || String(code ?? err.name);
    return (typeof code === 'string' && !text.includes(code) ? `${code}: ${text}` : text).replace(/\s+/g, ' ').trim();
  }
  return String(err);
}
