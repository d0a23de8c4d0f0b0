import { countTokens } from 'gpt-tokenizer';

export interface ModelPrice {
  inputPerMTok: number;
  outputPerMTok: number;
}

/** USD per 1M tokens for the world's fictional models (shaped like a real provider's price list). */
export const MODEL_PRICES: Record<string, ModelPrice> = {
  'sim-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6 },
  'sim-4o': { inputPerMTok: 2.5, outputPerMTok: 10 },
};
export const DEFAULT_MODEL = 'sim-4o-mini';

/**
 * USD per 1M tokens of real models a `--model-upstream` provider may serve, from their providers'
 * public price lists (standard tier, uncached input). A model not listed here has an unknown price:
 * its calls are counted with their tokens, and its cost is reported as unknown, never as $0.
 */
export const UPSTREAM_PRICES: Record<string, ModelPrice> = {
  'gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6 },
  'gpt-4o': { inputPerMTok: 2.5, outputPerMTok: 10 },
  'gpt-4.1': { inputPerMTok: 2, outputPerMTok: 8 },
  'gpt-4.1-mini': { inputPerMTok: 0.4, outputPerMTok: 1.6 },
  'gpt-4.1-nano': { inputPerMTok: 0.1, outputPerMTok: 0.4 },
  'o4-mini': { inputPerMTok: 1.1, outputPerMTok: 4.4 },
  'o3-mini': { inputPerMTok: 1.1, outputPerMTok: 4.4 },
  'gpt-3.5-turbo': { inputPerMTok: 0.5, outputPerMTok: 1.5 },
};

/** The price of a model by name; a dated snapshot (`gpt-4o-mini-2024-07-18`) costs what its family costs. */
export function priceOf(model: string): ModelPrice | null {
  const table = { ...UPSTREAM_PRICES, ...MODEL_PRICES };
  return table[model] ?? table[model.replace(/-\d{4}-\d{2}-\d{2}$/, '')] ?? null;
}

/** Dollars for one call, or null when the model's price is unknown. */
export function costUsd(model: string, promptTokens: number, completionTokens: number): number | null {
  const price = priceOf(model);
  if (!price) return null;
  const usd = (promptTokens * price.inputPerMTok + completionTokens * price.outputPerMTok) / 1_000_000;
  return Math.round(usd * 1e9) / 1e9;
}

/** A sum of costs: unknown as soon as one of them is. */
export function sumCosts(costs: Iterable<number | null>): number | null {
  let total = 0;
  for (const c of costs) {
    if (c === null) return null;
    total += c;
  }
  return Math.round(total * 1e9) / 1e9;
}

/** Chat-formatted prompt size with the usual per-message framing overhead (o200k encoding, as gpt-4o counts). */
export function countPromptTokens(messages: { role: string; content: string }[]): number {
  return messages.reduce((sum, m) => sum + 4 + countTokens(m.content), 0) + 3;
}

export { countTokens };
