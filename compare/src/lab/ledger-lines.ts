import { operationLabel } from '@vendor-review/conformance';
import type { LedgerEntry, WorldClient } from '@vendor-review/world';
import { money } from '../table.ts';

/**
 * What the world billed and received for a run, printed beside its worker's lines as `[world]`
 * lines: each ledger entry once, in order, from the moment this lab worker took the run.
 */
export function ledgerLine(runId: string, e: LedgerEntry): string | null {
  const who = `worker ${e.worker ?? '?'}, ${e.step ?? '?'}${e.attempt ? ` attempt ${e.attempt}` : ''}`;
  if (e.kind === 'model') {
    const aborted = e.outcome === 'aborted' ? ' (aborted: the worker left before the answer; billed all the same)' : '';
    return `[world] run ${runId}: billed a model call by ${who}: ${e.promptTokens} prompt + ${e.completionTokens} completion tokens = ${money(e.costUsd)}${aborted}`;
  }
  if (e.kind === 'mail' || e.kind === 'tracker') {
    const what = e.outcome === 'deduplicated' ? 'recognised its key: nothing new' : e.outcome;
    return `[world] run ${runId}: ${operationLabel(e)} from ${who}: ${what}`;
  }
  return null;
}

export class LedgerPrinter {
  /** The highest ledger seq printed (or skipped) per run. */
  readonly #seen = new Map<string, number>();
  /** Each run's reads, one after the other. */
  readonly #turns = new Map<string, Promise<void>>();

  constructor(
    private readonly world: WorldClient,
    private readonly out: (line: string) => void,
  ) {}

  /** Only what happens from now on: the ledger so far belongs to earlier workers. */
  async skipToNow(runId: string): Promise<void> {
    const entries = await this.world.ledger({ runId }).catch(() => []);
    this.#seen.set(runId, Math.max(0, ...entries.map((e) => e.seq)));
  }

  /** The run's ledger lines not printed yet; one read at a time per run, so none is printed twice. */
  print(runId: string): Promise<void> {
    const turn = (this.#turns.get(runId) ?? Promise.resolve()).then(() => this.#printNew(runId));
    this.#turns.set(runId, turn);
    return turn;
  }

  async #printNew(runId: string): Promise<void> {
    const entries: LedgerEntry[] = await this.world.ledger({ runId }).catch(() => []);
    const seen = this.#seen.get(runId) ?? 0;
    for (const e of entries.filter((x) => x.seq > seen)) {
      const line = ledgerLine(runId, e);
      if (line) this.out(line);
    }
    if (entries.length) this.#seen.set(runId, Math.max(seen, ...entries.map((e) => e.seq)));
  }
}
