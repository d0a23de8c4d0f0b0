/**
 * The pipeline's steps in graph order: LangGraph's node names, the head of every Temporal activity
 * id ("FETCH:soc2:1"), and the step every call to the outside world reports to the ledger.
 */
export const STEP_NAMES = [
  'VALIDATE',
  'DISCOVER',
  'SELECT_REQUIREMENT',
  'SELECT_PAGE',
  'FETCH',
  'EXTRACT',
  'VERIFY',
  'SAVE_PROGRESS',
  'DRAFT',
  // A node of its own for the approver's notification, where a runtime replays a whole node on resume (LangGraph hardened).
  'ASK_APPROVAL',
  'AWAIT_APPROVAL',
  'DELIVER',
  'DEAD_LETTER',
] as const;

export type StepName = (typeof STEP_NAMES)[number];
