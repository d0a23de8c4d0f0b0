import type { WorldConfig } from './control.ts';
import type { Delivery } from './deliveries.ts';
import type { FaultRule, FaultRuleInput } from './faults.ts';
import { z } from 'zod';
import { LedgerEntrySchema, type LedgerEntry, type LedgerKind } from './ledger.ts';

const LedgerResponse = z.object({ entries: z.array(LedgerEntrySchema) });

/** Flattened as the inspection routes return them: id, runId, idempotencyKey, at, then the payload's fields. */
export type DeliveryView = Omit<Delivery, 'payload'> & Record<string, unknown>;

/** A typed client for the world's control and inspection routes, for harnesses in other processes. */
export function worldClient(url: string) {
  const base = url.replace(/\/+$/, '');
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${base}${path}`, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`world ${method} ${path} -> ${res.status}: ${text}`);
    return JSON.parse(text) as T;
  }
  const q = (params: Record<string, string | undefined>) => {
    const s = new URLSearchParams(
      Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined),
    ).toString();
    return s ? `?${s}` : '';
  };
  return {
    url: base,
    health: () => call<{ ok: boolean; vendors: string[]; models: string[] }>('GET', '/__health'),
    /** Parsed with the world's own schema: a ledger that does not match is an error, never an empty list. */
    ledger: async (filter: { runId?: string; kind?: LedgerKind } = {}): Promise<LedgerEntry[]> => {
      const parsed = LedgerResponse.safeParse(await call<unknown>('GET', `/__ledger${q(filter)}`));
      if (!parsed.success)
        throw new Error(`world ledger at ${base} does not match its schema: ${parsed.error.message}`);
      return parsed.data.entries.sort((a, b) => a.seq - b.seq);
    },
    resetLedger: () => call<{ ok: true }>('DELETE', '/__ledger'),
    addFault: async (rule: FaultRuleInput) => (await call<{ fault: FaultRule }>('POST', '/__faults', rule)).fault,
    faults: async () => (await call<{ faults: FaultRule[] }>('GET', '/__faults')).faults,
    removeFault: (id: string) => call<{ ok: boolean }>('DELETE', `/__faults/${encodeURIComponent(id)}`),
    clearFaults: () => call<{ ok: true }>('DELETE', '/__faults'),
    outbox: async (runId?: string) =>
      (await call<{ deliveries: DeliveryView[] }>('GET', `/mail/outbox${q({ runId })}`)).deliveries,
    notes: async (runId?: string) =>
      (await call<{ notes: DeliveryView[] }>('GET', `/tracker/notes${q({ runId })}`)).notes,
    inbox: async (runId?: string) =>
      (await call<{ requests: DeliveryView[] }>('GET', `/approver/inbox${q({ runId })}`)).requests,
    config: () => call<WorldConfig>('GET', '/__config'),
    configure: (config: Partial<WorldConfig>) => call<WorldConfig>('POST', '/__config', config),
    reset: () => call<{ ok: true }>('POST', '/__reset'),
  };
}

export type WorldClient = ReturnType<typeof worldClient>;
