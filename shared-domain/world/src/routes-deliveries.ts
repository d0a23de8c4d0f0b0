import { z } from 'zod';
import { apiError, json, POSTED_PATHS, type Answer, type RouteRequest } from './answer.ts';
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

/**
 * A receiver's POST: the body checked against its schema (422 naming the missing fields), then
 * delivered into its store; the run is the header's, else the body's own runId.
 */
function receiverRoute<T extends Record<string, unknown>>(
  req: RouteRequest,
  store: DeliveryStore,
  o: { path: string; receiver: string; schema: z.ZodType<T>; needs: string; code: string },
): Answer {
  if (req.method !== 'POST' || req.path !== o.path)
    return apiError(404, `no ${o.receiver} route ${req.method} ${req.path}`, 'not_found');
  const body = o.schema.safeParse(parseJson(req.body));
  if (!body.success)
    return apiError(422, `${o.needs}: ${body.error.issues.map((i) => i.path.join('.')).join(', ')}`, o.code);
  const own = typeof body.data.runId === 'string' ? body.data.runId : null;
  return deliverWith(store, { ...req, runId: req.runId ?? own }, body.data);
}

/** POST /tracker/notes */
export function trackerRoute(req: RouteRequest, notes: DeliveryStore): Answer {
  return receiverRoute(req, notes, {
    path: POSTED_PATHS.tracker,
    receiver: 'tracker',
    schema: NoteSchema,
    needs: 'a note needs runId and text',
    code: 'invalid_note',
  });
}

/** POST /approver/notify: the approver's inbox, a receiver of its own (not a mail, not a note). */
export function approverRoute(req: RouteRequest, inbox: DeliveryStore): Answer {
  return receiverRoute(req, inbox, {
    path: POSTED_PATHS.approver,
    receiver: 'approver',
    schema: AskSchema,
    needs: 'an approval request needs runId, vendor and summary',
    code: 'invalid_request',
  });
}

/** POST /mail/send */
export function mailRoute(req: RouteRequest, outbox: DeliveryStore): Answer {
  return receiverRoute(req, outbox, {
    path: POSTED_PATHS.mail,
    receiver: 'mail',
    schema: MailSchema,
    needs: 'a mail needs to, subject and body',
    code: 'invalid_mail',
  });
}
