import type { DurableMark, DurableRecord, InFlightTask } from '@vendor-review/conformance';

/** One row of DBOS's step journal (`listWorkflowSteps`), as much of it as the record needs. */
export interface JournalStep {
  functionID: number;
  name: string;
  error: unknown;
  startedAtEpochMs?: number;
  completedAtEpochMs?: number;
}

/** Our step names are the logical operation ("FETCH:soc2:1", "DELIVER:outbox"); the step is the head. DBOS's own operations ("DBOS.setEvent") keep theirs. */
export function stepOf(name: string): string | null {
  const head = name.split(/[:#]/)[0];
  return head && /^[A-Z_]+$/.test(head) ? head : null;
}

/** The workflow's claim: DBOS's count of its owners (the first start and every recovery by another process). */
export function claimOf(recoveryAttempts: number | null | undefined): InFlightTask {
  return { step: null, attempt: recoveryAttempts ?? 1, worker: null, fence: 'runtime' };
}

/**
 * DBOS's journal for one workflow as the harness reads it: one mark per recorded operation, in
 * the order DBOS numbered them. A step appears only once its output (or error) is recorded: a
 * step that was running when its worker died leaves nothing, and runs again. DBOS does not record
 * which process wrote a step, so marks name no writer. Its own operations (setEvent, recv) only
 * move the machinery: bookkeeping. Its claim count (recoveryAttempts: the first start and every
 * recovery by another process) stays on the workflow's row once it has ended: a claim.
 */
export function toDurableRecord(steps: readonly JournalStep[], claimCount?: number | null): DurableRecord {
  const marks = steps.map((s): DurableMark => {
    const step = stepOf(s.name);
    const failed = s.error !== null && s.error !== undefined;
    return {
      id: String(s.functionID),
      kind: 'event',
      at: s.completedAtEpochMs ?? null,
      step,
      short: `#${s.functionID} ${step ?? s.name.replace(/^DBOS\./, '')}${failed ? ' failed' : ''}`,
      long: `journal step ${s.functionID}: ${s.name}${failed ? ' (recorded an error)' : ''}`,
      order: s.functionID,
      ...(step ? {} : { bookkeeping: true }),
    };
  });
  marks.sort((a, b) => a.order - b.order);
  const claims = claimCount ? [claimOf(claimCount)] : [];
  return { runtime: 'dbos', kind: 'history', marks, claims };
}
