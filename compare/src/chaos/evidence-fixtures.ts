import type { ReviewState } from '@vendor-review/pipeline';
import type { DeliveryView } from '@vendor-review/world';
import type { RunEvidence } from './run-evidence.ts';

/**
 * A run's evidence as the tests of the checker and of the judgement build it: by default a clean
 * one (completed, approved, one mail, one note), each test changing only what it is about.
 */
export const reviewState = (draft = 'the review') =>
  ({
    verdicts: { pricing: { status: 'met', confidence: 0.9, evidence: [] } },
    draft: { text: draft },
    approval: { approved: true, by: 'chaos-harness' },
  }) as unknown as ReviewState;

export const mail = (id: string, runId = 'r1'): DeliveryView => ({
  id,
  runId,
  idempotencyKey: null,
  at: 0,
  to: 'a@b',
  subject: 's',
});

export const note = (id: string, requirementId: string): DeliveryView => ({
  id,
  runId: 'r1',
  idempotencyKey: null,
  at: 0,
  requirementId,
  text: 't',
});

export function evidence(o: Partial<RunEvidence> = {}): RunEvidence {
  return {
    ledger: [],
    mails: [mail('msg-1')],
    notes: [note('note-1', 'pricing')],
    durable: { runtime: 'x', kind: 'history', marks: [] },
    final: { status: 'completed', state: reviewState() },
    unreadable: null,
    outbox: [],
    provenance: null,
    completion: null,
    ...o,
  };
}
