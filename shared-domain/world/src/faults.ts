import { z } from 'zod';

/**
 * Injected failures. A rule matches by path prefix (or a kind alias: web, model, tracker, mail),
 * optionally only for one run id or step, and fires for its next `times` matching requests or forever.
 * Two kinds still serve the request: `slow` stalls it first, `vary` makes the model answer a request
 * it has answered before differently (model-variation.ts), for this run only.
 */
export const FAULT_KINDS = ['429', '503', '404', '422', 'slow', 'drop', 'vary'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** The kinds after which the request is still answered by its route. */
export function servesRequest(kind: FaultKind): boolean {
  return kind === 'slow' || kind === 'vary';
}

const ROUTE_ALIASES: Record<string, string> = {
  web: '/vendors/',
  model: '/v1/',
  tracker: '/tracker/',
  mail: '/mail/',
  approver: '/approver/',
};

export const FaultRuleInputSchema = z.object({
  route: z.string().min(1),
  kind: z.enum(FAULT_KINDS),
  times: z.union([z.number().int().min(1), z.literal('forever')]).default(1),
  runId: z.string().optional(),
  step: z.string().optional(),
  method: z.string().optional(),
  /** For `slow`: how long to stall before answering normally. */
  delayMs: z.number().int().min(0).max(120_000).default(2_000),
});
export type FaultRuleInput = z.input<typeof FaultRuleInputSchema>;

export interface FaultRule {
  id: string;
  route: string;
  kind: FaultKind;
  runId?: string;
  step?: string;
  method?: string;
  delayMs: number;
  /** Requests still to hit, or 'forever'. */
  remaining: number | 'forever';
  fired: number;
}

export interface FaultProbe {
  path: string;
  method: string;
  runId: string | null;
  step: string | null;
}

export class FaultBook {
  #rules: FaultRule[] = [];
  #next = 0;

  add(input: FaultRuleInput): FaultRule {
    const parsed = FaultRuleInputSchema.parse(input);
    const rule: FaultRule = {
      id: `fault-${++this.#next}`,
      route: ROUTE_ALIASES[parsed.route] ?? parsed.route,
      kind: parsed.kind,
      delayMs: parsed.delayMs,
      remaining: parsed.times,
      fired: 0,
      ...(parsed.runId ? { runId: parsed.runId } : {}),
      ...(parsed.step ? { step: parsed.step } : {}),
      ...(parsed.method ? { method: parsed.method.toUpperCase() } : {}),
    };
    this.#rules.push(rule);
    return rule;
  }

  /** The first live rule matching this request, consumed by one; undefined when none applies. */
  take(probe: FaultProbe): FaultRule | undefined {
    const rule = this.#rules.find(
      (r) =>
        probe.path.startsWith(r.route) &&
        (r.runId === undefined || r.runId === probe.runId) &&
        (r.step === undefined || r.step === probe.step) &&
        (r.method === undefined || r.method === probe.method),
    );
    if (!rule) return undefined;
    rule.fired += 1;
    if (rule.remaining !== 'forever') {
      rule.remaining -= 1;
      if (rule.remaining === 0) this.#rules = this.#rules.filter((r) => r !== rule);
    }
    return { ...rule };
  }

  list(): FaultRule[] {
    return this.#rules.map((r) => ({ ...r }));
  }

  remove(id: string): boolean {
    const before = this.#rules.length;
    this.#rules = this.#rules.filter((r) => r.id !== id);
    return this.#rules.length < before;
  }

  clear(): void {
    this.#rules = [];
  }
}
