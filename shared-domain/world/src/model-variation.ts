import { parseChatRequest, promptHash } from './routes-model.ts';

/**
 * A real provider at temperature > 0 answers the same request differently each time it is asked.
 * The world's model is deterministic; with variation on (the world's `modelVaries` switch, or a
 * `vary` fault for one run) it counts how often each run has sent each prompt, and the n-th time
 * it answers with the n-th rendition. The first answer is always the deterministic one, so a run
 * that never repeats a call sees exactly what it would see with variation off.
 */
export class ModelVariation {
  #asked = new Map<string, number>();

  /** 0 the first time this run sends this chat request, 1 the second time… (0 for a body that is not one). */
  next(runId: string | null, body: string): number {
    const chat = parseChatRequest(body);
    if (!chat) return 0;
    const key = `${runId ?? ''}\u0000${promptHash(chat.messages)}`;
    const n = this.#asked.get(key) ?? 0;
    this.#asked.set(key, n + 1);
    return n;
  }

  reset(): void {
    this.#asked.clear();
  }
}
