import { countTokens } from 'gpt-tokenizer';

/** USD per 1M tokens for the world's fictional models (shaped like a real provider's price list). */
export const MODEL_PRICES: Record<string, { inputPerMTok: number; outputPerMTok: number }> = {
  'sim-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6 },
  'sim-4o': { inputPerMTok: 2.5, outputPerMTok: 10 },
};
export const DEFAULT_MODEL = 'sim-4o-mini';

export function costUsd(model: string, promptTokens: number, completionTokens: number): number {
  const price = MODEL_PRICES[model];
  if (!price) return 0;
  const usd = (promptTokens * price.inputPerMTok + completionTokens * price.outputPerMTok) / 1_000_000;
  return Math.round(usd * 1e9) / 1e9;
}

/** Chat-formatted prompt size with the usual per-message framing overhead (o200k encoding, as gpt-4o counts). */
export function countPromptTokens(messages: { role: string; content: string }[]): number {
  return messages.reduce((sum, m) => sum + 4 + countTokens(m.content), 0) + 3;
}

export { countTokens };
