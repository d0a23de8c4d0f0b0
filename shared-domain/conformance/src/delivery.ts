import type { RunView } from '@vendor-review/pipeline';
import type { LedgerEntry, WorldClient } from '@vendor-review/world';

/**
 * When a run that has ended is done with: an outbox may send its mail a moment after the run's
 * final status is written (the hardened variants' outbox is drained after the step that wrote it),
 * so whoever drives a run (the crash cell, the lab worker) waits for the mail before it stops the
 * run's workers, and no longer than the grace.
 */
export const MAIL_GRACE_MS = 8000;

/** Only a completed, approved run owes a mail; a failed or rejected one has nothing to send. */
export const mailOwed = (view: RunView): boolean =>
  view.status === 'completed' && view.state?.approval?.approved !== false;

/** The run's mail has reached the mailer: the world's ledger shows it accepted (or recognised its key). */
export const mailShown = (ledger: readonly LedgerEntry[]): boolean =>
  ledger.some((e) => e.kind === 'mail' && (e.outcome === 'ok' || e.outcome === 'deduplicated'));

/** Done with, as far as its mail goes: the run owes none, or the world's ledger shows it sent. */
export async function mailDelivered(world: WorldClient, runId: string, view: RunView): Promise<boolean> {
  if (!mailOwed(view)) return true;
  const ledger = await world.ledger({ runId });
  return mailShown(ledger.filter((e) => e.runId === runId));
}
