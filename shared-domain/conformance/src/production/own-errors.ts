import type { LedgerEntry } from '@vendor-review/world';

/**
 * A step's own errors as the world saw them: the one definition the production drill and the
 * chaos checker both judge the retry rule by (domain retry-rule.ts), never the count a worker
 * wrote. An own error is a request the world failed: an injected fault that refuses (not a stall
 * or a varied answer), or an error or a conflict it answered on its own. A request whose client
 * went away (`aborted`) is not: the world cannot tell a client's timeout from its death, and the
 * ports' timeouts (10 s, the model's 60 s) are far above any stall the drills and the chaos
 * campaign inject (2 s), so there it is a worker killed, frozen or cut off: a lost machine.
 * A 4xx other than 429 is permanent: the rule retries none, so one is a full reason.
 */
export function failedRequest(e: LedgerEntry): boolean {
  if (e.outcome === 'fault') return e.fault !== 'slow' && e.fault !== 'vary';
  return e.outcome === 'error' || e.outcome === 'conflict';
}

export function permanentRequest(e: LedgerEntry): boolean {
  return failedRequest(e) && e.status >= 400 && e.status < 500 && e.status !== 429;
}

/**
 * The own errors of a step of one run: its retries are per operation (one FETCH per page), so the
 * most-failed operation of the step is its count. A stage (several steps in one node or activity,
 * reported "EXTRACT (in REQUIREMENT)") retries as a whole, so every failed request of the run
 * counts.
 */
export function ownErrorsOfStep(ledger: readonly LedgerEntry[], step: string): { count: number; permanent: boolean } {
  const inStage = /\(in \w+\)/.test(step);
  const name = step.split(' ')[0];
  const failed = ledger.filter((e) => failedRequest(e) && (inStage || e.step === name));
  const perOp = new Map<string, number>();
  for (const e of failed) {
    const op = inStage ? '' : e.opKey;
    perOp.set(op, (perOp.get(op) ?? 0) + 1);
  }
  return { count: Math.max(0, ...perOp.values()), permanent: failed.some(permanentRequest) };
}
