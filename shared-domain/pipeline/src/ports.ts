import type { StepName } from './steps/names.ts';

/**
 * What a step may tell the outside world about the call it is making. The simulated world
 * writes these into its ledger; a real provider simply ignores the extra headers.
 */
export interface CallMeta {
  runId: string;
  step: StepName;
  attempt: number;
  /** Present only when the variant derives keys (hardened); the naive variant sends none. */
  idempotencyKey?: string;
  /** Which worker process made the call ("A", "B", "plain"), for timelines. */
  worker?: string;
}

export interface Page {
  url: string;
  status: number;
  title: string;
  text: string;
}

export interface Web {
  /** GET a page. Throws TransientError (429, 503, timeout, reset) or PermanentError (404, 422). */
  get(url: string, meta: CallMeta): Promise<Page>;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface ModelReply {
  text: string;
  model: string;
  usage: TokenUsage;
}

export interface ModelRequest {
  system: string;
  user: string;
  maxTokens?: number;
}

export interface Model {
  complete(req: ModelRequest, meta: CallMeta): Promise<ModelReply>;
}

export interface TrackerNote {
  runId: string;
  requirementId?: string;
  text: string;
}

export interface Receipt {
  id: string;
  /** True when the receiver recognised the idempotency key and did nothing new. */
  duplicate: boolean;
}

export interface Tracker {
  note(note: TrackerNote, meta: CallMeta): Promise<Receipt>;
}

export interface Mail {
  to: string;
  subject: string;
  body: string;
}

export interface Mailer {
  send(mail: Mail, meta: CallMeta): Promise<Receipt>;
}

/** What the approver is told: a review waits for their decision, in their words. */
export interface ApprovalRequest {
  runId: string;
  vendor: string;
  summary: string;
}

/**
 * Whoever decides at the approval gate: told that a review waits, before the run waits. A
 * notification is no side effect the review is judged by (the crash rules leave it out), but its
 * count is the clearest picture of where a runtime's unit of replay lies.
 */
export interface Approver {
  notify(request: ApprovalRequest, meta: CallMeta): Promise<Receipt>;
}

/** The kinds of call a run makes to the outside world, one per port. */
export type OperationKind = 'web' | 'model' | 'tracker' | 'mail' | 'approver';

export interface Ports {
  web: Web;
  model: Model;
  tracker: Tracker;
  mailer: Mailer;
  approver: Approver;
}
