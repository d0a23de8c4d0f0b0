import { createHash } from 'node:crypto';

/**
 * The mailer's outbox and the tracker's notes. Both honour Idempotency-Key the way payment APIs
 * do: the first request with a key is performed and its response remembered; a later request with
 * the same key and the same body gets the remembered response and nothing new happens. The same
 * key with a different body is refused (422, as the IETF Idempotency-Key header draft says):
 * replaying the first answer would tell the sender its second message was delivered when it was
 * not. Without a key, every POST is a new delivery — which is exactly the duplicate a crash after
 * sending produces.
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
  #byKey = new Map<string, { response: StoredResponse; body: string }>();

  constructor(prefix: string) {
    this.#prefix = prefix;
  }

  /**
   * Performs the delivery unless the key was seen: `replayed` when it was, with this body;
   * `conflict` (nothing done, nothing remembered) when it was, with another body.
   */
  deliver(args: { runId: string | null; idempotencyKey: string | null; payload: Record<string, unknown> }): {
    response: StoredResponse;
    replayed: boolean;
    conflict: boolean;
  } {
    const body = JSON.stringify(args.payload);
    if (args.idempotencyKey) {
      const seen = this.#byKey.get(args.idempotencyKey);
      if (seen && seen.body === body) return { response: seen.response, replayed: true, conflict: false };
      if (seen) {
        const message = `Idempotency-Key ${args.idempotencyKey} was used before with a different body (first ${seen.response.body.id}): refused, nothing was done`;
        return {
          response: { status: 422, body: { error: { message, code: 'idempotency_key_reused' } } },
          replayed: false,
          conflict: true,
        };
      }
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
    if (args.idempotencyKey) this.#byKey.set(args.idempotencyKey, { response, body });
    return { response, replayed: false, conflict: false };
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
