import type { Ports } from '@vendor-review/pipeline';
import { httpApprover } from './approver.ts';
import { httpMailer } from './mailer.ts';
import { openAiModel, resolveModelOptions, type ModelOptions } from './model.ts';
import { httpTracker } from './tracker.ts';
import { httpWeb } from './web.ts';

export { htmlToText, htmlTitle } from './html-text.ts';
export { errorForStatus, errorForNetwork } from './http-errors.ts';
export { resolveModelOptions, openAiModel, type ModelOptions } from './model.ts';
export { httpWeb, httpTracker, httpMailer, httpApprover };

export interface HttpPortsOptions {
  /** The world (or your own tracker, mailer and approver) base URL; WORLD_URL when omitted. Vendor pages are fetched at whatever URL the request names. */
  worldUrl?: string;
  /** Model endpoint; defaults per field to OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL, then to the world. */
  model?: ModelOptions;
  timeoutMs?: number;
}

/** Every port over HTTP. */
export function createHttpPorts(opts: HttpPortsOptions = {}): Ports {
  const worldUrl = opts.worldUrl ?? process.env.WORLD_URL;
  if (!worldUrl)
    throw new Error('createHttpPorts: pass worldUrl or set WORLD_URL (where the tracker, mailer and approver live)');
  const timeoutMs = opts.timeoutMs ?? 10_000;
  return {
    web: httpWeb({ timeoutMs }),
    model: openAiModel(resolveModelOptions(worldUrl, opts.model)),
    tracker: httpTracker(worldUrl, { timeoutMs }),
    mailer: httpMailer(worldUrl, { timeoutMs }),
    approver: httpApprover(worldUrl, { timeoutMs }),
  };
}
