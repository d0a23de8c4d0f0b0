import type * as OpenAiModule from 'openai';
import type OpenAI from 'openai';
import {
  PermanentError,
  TransientError,
  type CallMeta,
  type Model,
  type ModelReply,
  type ModelRequest,
} from '@vendor-review/pipeline';
import { metaHeaders } from './headers.ts';
import { errorForStatus } from './http-errors.ts';

export interface ModelOptions {
  /** An OpenAI-compatible base URL ending in /v1. Default: OPENAI_BASE_URL, else the world's /v1. */
  baseURL?: string;
  /** Default: OPENAI_API_KEY, else a placeholder the world accepts. */
  apiKey?: string;
  /** Default: OPENAI_MODEL, else the world's sim-4o-mini. */
  model?: string;
  timeoutMs?: number;
}

export function resolveModelOptions(
  worldUrl: string | undefined,
  opts: ModelOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): Required<ModelOptions> {
  const baseURL = opts.baseURL ?? env.OPENAI_BASE_URL ?? (worldUrl ? `${worldUrl.replace(/\/+$/, '')}/v1` : undefined);
  if (!baseURL)
    throw new PermanentError(
      'no model endpoint: set OPENAI_BASE_URL (and OPENAI_API_KEY, OPENAI_MODEL) or pass a world URL',
      'model-config',
    );
  return {
    baseURL,
    apiKey: opts.apiKey ?? env.OPENAI_API_KEY ?? 'sk-world-sim',
    model: opts.model ?? env.OPENAI_MODEL ?? 'sim-4o-mini',
    timeoutMs: opts.timeoutMs ?? 60_000,
  };
}

type OpenAiSdk = typeof OpenAiModule;
let sdk: Promise<OpenAiSdk> | undefined;
/**
 * The SDK takes over a second to import. A replacement worker must start fast after a crash, so it
 * pays for the SDK on its first model call, not at start-up.
 */
function loadSdk(): Promise<OpenAiSdk> {
  return (sdk ??= import('openai'));
}

function classify(err: unknown, { APIConnectionError, APIError, APIUserAbortError }: OpenAiSdk): Error {
  if (err instanceof APIUserAbortError) return new TransientError(`model call aborted: ${err.message}`, 'aborted');
  if (err instanceof APIConnectionError)
    return new TransientError(
      `model call failed: ${err.message}`,
      err.constructor.name === 'APIConnectionTimeoutError' ? 'timeout' : 'ECONNRESET',
    );
  if (err instanceof APIError && typeof err.status === 'number')
    return errorForStatus(err.status, 'model call', err.message);
  return err instanceof Error ? err : new Error(String(err));
}

/** The model port on the official client, so any OpenAI-compatible provider works by configuration alone. */
export function openAiModel(opts: Required<ModelOptions>): Model {
  let client: Promise<OpenAI> | undefined;
  const connect = async () =>
    new (await loadSdk()).default({
      baseURL: opts.baseURL,
      apiKey: opts.apiKey,
      timeout: opts.timeoutMs,
      // No retries in the client: the runtime (LangGraph retry policy, Temporal activity retries)
      // decides what to retry and counts attempts; a hidden second layer would multiply calls and
      // hide them from the attempt numbers the ledger shows.
      maxRetries: 0,
    });
  return {
    async complete(req: ModelRequest, meta: CallMeta): Promise<ModelReply> {
      const api = await (client ??= connect());
      let completion: OpenAI.Chat.Completions.ChatCompletion;
      try {
        completion = await api.chat.completions.create(
          {
            model: opts.model,
            temperature: 0,
            messages: [
              { role: 'system', content: req.system },
              { role: 'user', content: req.user },
            ],
            ...(req.maxTokens ? { max_tokens: req.maxTokens } : {}),
          },
          { headers: metaHeaders(meta) },
        );
      } catch (err) {
        throw classify(err, await loadSdk());
      }
      const text = completion.choices[0]?.message.content;
      if (typeof text !== 'string') throw new TransientError('model returned no text', 'empty-completion');
      return {
        text,
        model: completion.model,
        usage: {
          promptTokens: completion.usage?.prompt_tokens ?? 0,
          completionTokens: completion.usage?.completion_tokens ?? 0,
        },
      };
    },
  };
}
