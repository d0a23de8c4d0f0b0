import { createHash } from 'node:crypto';

/**
 * The mailer's outbox and the tracker's notes. Both honour Idempotency-Key the way payment APIs
 * do: the first request with a key is performed and its response remembered; a later request with
 * the same key gets the remembered response and nothing new happens. Without a key, every POST is
 * a new delivery — which is exactly the duplicate a crash after sending produces.
 */
export interface Delivery {
  id: string;
  runId: string | null;
  idempotencyKey: string | null;
  at: number;
  payload: Record<string, unknown>;
}

export interface StoredResponse {
  status: number;
  body: Record<string, unknown>;
}

export class DeliveryStore {
  readonly #prefix: string;
  #items: Delivery[] = [];
  #count = 0;
  #byKey = new Map<string, StoredResponse>();

  constructor(prefix: string) {
    this.#prefix = prefix;
  }

  /** Performs the delivery unless the key was seen; `replayed` tells the caller which happened. */
  deliver(args: { runId: string | null; idempotencyKey: string | null; payload: Record<string, unknown> }): {
    response: StoredResponse;
    replayed: boolean;
  } {
    if (args.idempotencyKey) {
      const seen = this.#byKey.get(args.idempotencyKey);
      if (seen) return { response: seen, replayed: true };
    }
    const id = `${this.#prefix}-${String(++this.#count).padStart(4, '0')}`;
    const delivery: Delivery = {
      id,
      runId: args.runId,
      idempotencyKey: args.idempotencyKey,
      at: Date.now(),
      payload: args.payload,
    };
    this.#items.push(delivery);
    const response: StoredResponse = { status: 201, body: { id, ...args.payload } };
    if (args.idempotencyKey) this.#byKey.set(args.idempotencyKey, response);
    return { response, replayed: false };
  }

  list(runId?: string): Delivery[] {
    return this.#items.filter((d) => runId === undefined || d.runId === runId);
  }

  reset(): void {
    this.#items = [];
    this.#byKey.clear();
  }
}

export function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}
