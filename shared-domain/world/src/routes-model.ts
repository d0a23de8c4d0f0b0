import { createHash } from 'node:crypto';
import { decode, encode } from 'gpt-tokenizer';
import { z } from 'zod';
import { apiError, json, type Answer, type RouteRequest } from './answer.ts';
import { countPromptTokens, countTokens, MODEL_PRICES } from './pricing.ts';
import { simulateCompletion } from './sim-model.ts';

const ContentSchema = z.union([z.string(), z.array(z.object({ type: z.string(), text: z.string().optional() }))]);
const ChatRequestSchema = z.object({
  model: z.string(),
  messages: z.array(z.object({ role: z.string(), content: ContentSchema.nullable().optional() })).min(1),
  max_tokens: z.number().int().positive().optional(),
  max_completion_tokens: z.number().int().positive().optional(),
});

export type ChatMessage = { role: string; content: string };

export function parseChatRequest(
  body: string,
): { model: string; messages: ChatMessage[]; maxTokens?: number } | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    return undefined;
  }
  const parsed = ChatRequestSchema.safeParse(raw);
  if (!parsed.success) return undefined;
  const messages = parsed.data.messages.map((m) => ({
    role: m.role,
    content: typeof m.content === 'string' ? m.content : (m.content ?? []).map((p) => p.text ?? '').join(''),
  }));
  const maxTokens = parsed.data.max_completion_tokens ?? parsed.data.max_tokens;
  return { model: parsed.data.model, messages, ...(maxTokens ? { maxTokens } : {}) };
}

export function promptHash(messages: ChatMessage[]): string {
  return createHash('sha256').update(JSON.stringify(messages)).digest('hex').slice(0, 12);
}

/**
 * POST /v1/chat/completions: deterministic answer, real token counts, billed at the model's price.
 * `rendition` > 0: the answer a sampled model gives when asked again (model-variation.ts).
 */
export function modelRoute(req: RouteRequest, modelLatencyMs: number, rendition = 0): Answer {
  if (req.method !== 'POST') return apiError(405, 'use POST', 'method_not_allowed');
  const chat = parseChatRequest(req.body);
  if (!chat) return apiError(400, 'body must be a chat completion request with model and messages', 'invalid_request');
  if (!MODEL_PRICES[chat.model]) {
    return apiError(
      404,
      `The model \`${chat.model}\` does not exist; this world serves ${Object.keys(MODEL_PRICES).join(', ')}`,
      'model_not_found',
    );
  }
  const promptTokens = countPromptTokens(chat.messages);
  const lastUser = [...chat.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  let content = simulateCompletion(lastUser, rendition);
  let finishReason = 'stop';
  if (chat.maxTokens && countTokens(content) > chat.maxTokens) {
    content = decode(encode(content).slice(0, chat.maxTokens));
    finishReason = 'length';
  }
  const completionTokens = countTokens(content);
  const response = {
    id: `chatcmpl-${promptHash(chat.messages)}${rendition ? `-${rendition}` : ''}`,
    object: 'chat.completion',
    // Fixed, so that the same request gets a byte-identical answer.
    created: 1735689600,
    model: chat.model,
    system_fingerprint: 'fp_world_sim',
    choices: [
      { index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: finishReason },
    ],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    },
  };
  return json(200, response, { model: chat.model, promptTokens, completionTokens, latencyMs: modelLatencyMs });
}
