import type { LedgerKind, LedgerOutcome } from './ledger.ts';

/** What a route decided to send, before latency and faults are applied; the server turns it into a response and a ledger entry. */
export interface Answer {
  status: number;
  contentType: string;
  body: string;
  headers?: Record<string, string>;
  outcome: Extract<LedgerOutcome, 'ok' | 'deduplicated' | 'error' | 'conflict'>;
  model?: string;
  promptTokens?: number;
  completionTokens?: number;
  /** A real provider answered: it billed the whole call even if our client left before the answer. */
  billedInFull?: boolean;
  /** How long the real service would take to answer this. */
  latencyMs: number;
}

export interface RouteRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  origin: string;
  body: string;
  runId: string | null;
  step: string | null;
  idempotencyKey: string | null;
}

export function json(status: number, value: unknown, extra: Partial<Answer> = {}): Answer {
  return {
    status,
    contentType: 'application/json',
    body: JSON.stringify(value),
    outcome: status < 400 ? 'ok' : 'error',
    latencyMs: 0,
    ...extra,
  };
}

/** OpenAI-shaped error body, so the official client parses it into its own error classes. */
export function apiError(status: number, message: string, code: string, extra: Partial<Answer> = {}): Answer {
  const type = status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : 'invalid_request_error';
  return json(status, { error: { message, type, code } }, extra);
}

/** The route each posted call takes: the world serves these, and a tool narrowing to one of them names it from here. */
export const POSTED_PATHS = {
  model: '/v1/chat/completions',
  tracker: '/tracker/notes',
  approver: '/approver/notify',
  mail: '/mail/send',
} as const;

export function kindOf(path: string): LedgerKind {
  if (path.startsWith('/v1/')) return 'model';
  if (path.startsWith('/tracker/')) return 'tracker';
  if (path.startsWith('/mail/')) return 'mail';
  if (path.startsWith('/approver/')) return 'approver';
  return 'web';
}
