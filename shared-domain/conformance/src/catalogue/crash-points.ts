import type { CrashPointName } from '@vendor-review/instrument';

/**
 * What each crash point is (where the worker dies) and what a crash there teaches. Where the
 * instrument finds each one in a worker is its own (shared-domain/instrument/src/points.ts):
 * after, before or during an outbound call, a step beginning at the runtime's hook, the commit,
 * the wait. Occurrences (`name@n`) count those sites in one process, which moved two counts when
 * the points left the steps: `after-model@n` and `mid-model@n` count every model call (DRAFT's
 * comes after every EXTRACT's, so n up to the number of requirements means what it did), and
 * `after-fetch@n` counts the page GETs really sent (a page the run already holds is not fetched
 * again, where the step used to pass the point anyway).
 */
export const CRASH_POINTS: Record<CrashPointName, { where: string; lesson: string }> = {
  boundary: {
    where: 'after FETCH is durable, before EXTRACT starts',
    lesson: 'A crash on a durable boundary repeats nothing: resume starts at the next step.',
  },
  'after-fetch': {
    where: 'FETCH got the page, the step is not yet committed',
    lesson:
      "The page is fetched again, and FETCH's other page too when it had not arrived before the kill (a race, so the row shows how often): reads are cheap to repeat, so only time is lost.",
  },
  'after-model': {
    where: 'EXTRACT got the model answer, the step is not yet committed',
    lesson: 'A paid model call runs twice: the tokens are billed again even though the answer was already received.',
  },
  'mid-model': {
    where: 'while the model request is in flight',
    lesson: 'The provider bills a call whose answer nobody received, and the resumed worker pays for it again.',
  },
  'after-progress': {
    where: 'SAVE_PROGRESS wrote the tracker note, the step is not yet committed',
    lesson: 'The tracker gets a second note unless the request carries an idempotency key the tracker honours.',
  },
  'after-deliver': {
    where: 'DELIVER sent the mail, the step is not yet committed',
    lesson: 'The customer receives the mail twice unless a key or an outbox makes the second send a no-op.',
  },
  'parallel-fetch': {
    where: 'the last of a fan-out of page fetches has its page, and its siblings have finished',
    lesson:
      'Finished siblings are kept (LangGraph pending writes, Temporal completed activities); only the unfinished fetch runs again.',
  },
  'mid-commit': {
    where:
      "the runtime is committing EXTRACT's result, inside its own write, where our code can reach it (the checkpoint's transaction in our saver)",
    lesson:
      "A kill inside the runtime's commit: the step's work is done and its result half-written. Whatever the commit had not finished is lost, and what that costs depends on what the runtime wrote before it.",
  },
  'before-deliver': {
    where: 'DELIVER is about to send the mail: the approval is in, nothing has been sent',
    lesson:
      'Nothing has reached the customer yet: a worker stopped here costs nothing, one that goes on sends the mail.',
  },
  'first-step': {
    where: "the run's first step has begun: the run was accepted, none of its steps is durable yet",
    lesson:
      'A run is only safe once the runtime has kept something of it: a kill before its first checkpoint loses the run where nothing but the worker held it.',
  },
  'start-call': {
    where:
      "the call that starts the run has begun, in the process that makes it (invoke(), startWorkflow, a client's submit): nothing of the run may be kept yet",
    lesson:
      'A run is only safe once the runtime has kept its start: a kill of the process that made the start call before that loses the run, or leaves it to whoever retries the start with the same id.',
  },
  'awaiting-approval': {
    where: 'the run is durably waiting for a human approval',
    lesson:
      'A waiting run costs nothing and loses nothing: the approval sent while no worker was alive is picked up by the next one.',
  },
};
