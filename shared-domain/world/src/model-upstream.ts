import { apiError, type Answer, type RouteRequest } from './answer.ts';
import { parseChatRequest } from './routes-model.ts';

/**
 * The world as a counting proxy in front of a real OpenAI-compatible provider (`pnpm compare
 * --model-upstream URL`): a worker still talks only to the world, so every model call, its real
 * token usage and its price land in the ledger, and every column of the table keeps its meaning.
 * The key stays in the harness; workers never see it. The model asked for is replaced by the one
 * configured (OPENAI_MODEL): the pipeline's own name for it means nothing to the provider.
 */
export interface ModelUpstream {
  /** Base URL ending in /v1, as OpenAI clients take it. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs?: number;
}

const UsageSchemaKeys = ['prompt_tokens', 'completion_tokens'] as const;

function usageOf(body: unknown): { promptTokens: number; completionTokens: number; model: string | null } {
  const b = body as { usage?: Record<string, unknown>; model?: unknown } | null;
  const [p, c] = UsageSchemaKeys.map((k) => Number(b?.usage?.[k] ?? 0));
  return {
    promptTokens: Number.isFinite(p) ? p! : 0,
    completionTokens: Number.isFinite(c) ? c! : 0,
    model: typeof b?.model === 'string' ? b.model : null,
  };
}

export async function forwardModelCall(req: RouteRequest, upstream: ModelUpstream): Promise<Answer> {
  if (req.method !== 'POST') return apiError(405, 'use POST', 'method_not_allowed');
  const chat = parseChatRequest(req.body);
  if (!chat) return apiError(400, 'body must be a chat completion request with model and messages', 'invalid_request');
  const body = { ...(JSON.parse(req.body) as Record<string, unknown>), model: upstream.model };
  let res: Response;
  try {
    res = await fetch(`${upstream.baseUrl.replace(/\/+$/, '')}${req.path.replace(/^\/v1/, '')}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        ...(upstream.apiKey ? { Authorization: `Bearer ${upstream.apiKey}` } : {}),
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(upstream.timeoutMs ?? 120_000),
    });
  } catch (err) {
    return apiError(
      502,
      `the model upstream ${upstream.baseUrl} did not answer: ${err instanceof Error ? err.message : String(err)}`,
      'upstream_unreachable',
    );
  }
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    // a provider's error page: passed on as is
  }
  const usage = res.ok ? usageOf(parsed) : { promptTokens: 0, completionTokens: 0, model: null };
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? 'application/json',
    body: text,
    outcome: res.ok ? 'ok' : 'error',
    // Priced by the name the provider reports (a dated snapshot falls back to its family's price).
    model: usage.model ?? upstream.model,
    promptTokens: usage.promptTokens,
    completionTokens: usage.completionTokens,
    billedInFull: true,
    latencyMs: 0,
  };
}
