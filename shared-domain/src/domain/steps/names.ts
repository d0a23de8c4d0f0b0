/** The pipeline's steps in graph order. Both runtimes use these names for nodes and activities. */
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
  'AWAIT_APPROVAL',
  'DELIVER',
  'DEAD_LETTER',
] as const;

export type StepName = (typeof STEP_NAMES)[number];
