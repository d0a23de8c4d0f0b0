import { z } from 'zod';
import { apiError, json, type Answer, type RouteRequest } from './answer.ts';
import type { DeliveryStore } from './deliveries.ts';

const NoteSchema = z.object({
  runId: z.string().min(1),
  requirementId: z.string().optional(),
  text: z.string().min(1),
});
const AskSchema = z.object({ runId: z.string().min(1), vendor: z.string().min(1), summary: z.string().min(1) });
const MailSchema = z.object({ to: z.string().min(3), subject: z.string().min(1), body: z.string().min(1) });

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

function deliverWith(store: DeliveryStore, req: RouteRequest, payload: Record<string, unknown>): Answer {
  const { response, replayed, conflict } = store.deliver({
    runId: req.runId,
    idempotencyKey: req.idempotencyKey,
    payload,
  });
  return json(response.status, response.body, {
    outcome: conflict ? 'conflict' : replayed ? 'deduplicated' : 'ok',
    headers: replayed ? { 'Idempotent-Replayed': 'true' } : {},
    latencyMs: 5,
  });
}

/** POST /tracker/notes */
export function trackerRoute(req: RouteRequest, notes: DeliveryStore): Answer {
  if (req.method !== 'POST' || req.path !== '/tracker/notes')
    return apiError(404, `no tracker route ${req.method} ${req.path}`, 'not_found');
  const note = NoteSchema.safeParse(parseJson(req.body));
  if (!note.success)
    return apiError(
      422,
      `a note needs runId and text: ${note.error.issues.map((i) => i.path.join('.')).join(', ')}`,
      'invalid_note',
    );
  return deliverWith(notes, { ...req, runId: req.runId ?? note.data.runId }, note.data);
}

/** POST /approver/notify: the approver's inbox, a receiver of its own (not a mail, not a note). */
export function approverRoute(req: RouteRequest, inbox: DeliveryStore): Answer {
  if (req.method !== 'POST' || req.path !== '/approver/notify')
    return apiError(404, `no approver route ${req.method} ${req.path}`, 'not_found');
  const ask = AskSchema.safeParse(parseJson(req.body));
  if (!ask.success)
    return apiError(
      422,
      `an approval request needs runId, vendor and summary: ${ask.error.issues.map((i) => i.path.join('.')).join(', ')}`,
      'invalid_request',
    );
  return deliverWith(inbox, { ...req, runId: req.runId ?? ask.data.runId }, ask.data);
}

/** POST /mail/send */
export function mailRoute(req: RouteRequest, outbox: DeliveryStore): Answer {
  if (req.method !== 'POST' || req.path !== '/mail/send')
    return apiError(404, `no mail route ${req.method} ${req.path}`, 'not_found');
  const mail = MailSchema.safeParse(parseJson(req.body));
  if (!mail.success)
    return apiError(
      422,
      `a mail needs to, subject and body: ${mail.error.issues.map((i) => i.path.join('.')).join(', ')}`,
      'invalid_mail',
    );
  return deliverWith(outbox, req, mail.data);
}
