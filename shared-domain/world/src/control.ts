import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import type { DeliveryStore, Delivery } from './deliveries.ts';
import { FaultRuleInputSchema, type FaultBook } from './faults.ts';
import type { Ledger, LedgerKind } from './ledger.ts';
import type { ModelVariation } from './model-variation.ts';
import { MODEL_PRICES } from './pricing.ts';
import { VENDORS } from './vendors/index.ts';

export interface WorldConfig {
  /** How long the simulated model takes to answer: long enough that a crash "mid-model" lands while the request is in flight. */
  modelLatencyMs: number;
  /** How long a vendor page takes. */
  pageLatencyMs: number;
  /**
   * Off (the default): the same request always gets the same answer. On: a request a run sends
   * again is answered differently, as a real provider at temperature > 0 does (model-variation.ts).
   * For one run only, a `vary` fault does the same.
   */
  modelVaries: boolean;
}

export interface WorldParts {
  ledger: Ledger;
  faults: FaultBook;
  notes: DeliveryStore;
  outbox: DeliveryStore;
  inbox: DeliveryStore;
  variation: ModelVariation;
  config: WorldConfig;
}

export const ROUTES = [
  'GET  /vendors/<slug>/sitemap.json      the vendor sitemap: { vendor, pages: [{ url, title, kind }] }',
  'GET  /vendors/<slug>/<page>            vendor pages (HTML)',
  'POST /v1/chat/completions              OpenAI-compatible, deterministic, billed',
  'POST /tracker/notes                    { runId, requirementId?, text }, honours Idempotency-Key (422 if reused with another body)',
  'POST /mail/send                        { to, subject, body }, honours Idempotency-Key (422 if reused with another body)',
  'POST /approver/notify                  { runId, vendor, summary }, honours Idempotency-Key (422 if reused with another body)',
  'GET  /mail/outbox?runId=               { deliveries }',
  'GET  /approver/inbox?runId=            { requests }',
  'GET  /tracker/notes?runId=             { notes }',
  'GET  /__ledger?runId=&kind=            { entries }        DELETE /__ledger resets it',
  'GET  /__faults                         { faults }         POST /__faults { route, kind, times?, runId?, step?, method?, delayMs? }',
  'DELETE /__faults[/<id>]                clear all or one fault',
  'GET|POST /__config                     { modelLatencyMs, pageLatencyMs, modelVaries }',
  'POST /__reset                          ledger, faults, outbox, notes and inbox emptied',
  'GET  /__health                         { ok, vendors, models }',
];

const ConfigSchema = z
  .object({
    modelLatencyMs: z.number().int().min(0).max(60_000),
    pageLatencyMs: z.number().int().min(0).max(60_000),
    modelVaries: z.boolean(),
  })
  .partial();

function send(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(value));
}

function flatten(d: Delivery): Record<string, unknown> {
  return { id: d.id, runId: d.runId, idempotencyKey: d.idempotencyKey, at: d.at, ...d.payload };
}

/** True when the path is an inspection/control route: never faulted, never in the ledger. */
export function isControlRoute(method: string, path: string): boolean {
  return (
    path === '/' ||
    path.startsWith('/__') ||
    (method === 'GET' && (path === '/mail/outbox' || path === '/tracker/notes' || path === '/approver/inbox'))
  );
}

export function handleControl(
  parts: WorldParts,
  method: string,
  path: string,
  query: URLSearchParams,
  body: string,
  res: ServerResponse,
): void {
  const runId = query.get('runId') ?? undefined;
  const parse = (): unknown => (body ? JSON.parse(body) : {});
  try {
    if (method === 'GET' && path === '/')
      return send(res, 200, {
        world: 'vendor-review simulated world',
        vendors: VENDORS.map((v) => v.slug),
        routes: ROUTES,
      });
    if (method === 'GET' && path === '/__health')
      return send(res, 200, { ok: true, vendors: VENDORS.map((v) => v.slug), models: Object.keys(MODEL_PRICES) });
    if (method === 'GET' && path === '/__ledger') {
      const kind = (query.get('kind') ?? undefined) as LedgerKind | undefined;
      return send(res, 200, {
        entries: parts.ledger.entries({ ...(runId ? { runId } : {}), ...(kind ? { kind } : {}) }),
      });
    }
    if (method === 'DELETE' && path === '/__ledger') return (parts.ledger.reset(), send(res, 200, { ok: true }));
    if (method === 'GET' && path === '/__faults') return send(res, 200, { faults: parts.faults.list() });
    if (method === 'POST' && path === '/__faults') {
      const input = parse();
      if (Array.isArray(input))
        return send(res, 201, { faults: input.map((r) => parts.faults.add(FaultRuleInputSchema.parse(r))) });
      return send(res, 201, { fault: parts.faults.add(FaultRuleInputSchema.parse(input)) });
    }
    if (method === 'DELETE' && path === '/__faults') return (parts.faults.clear(), send(res, 200, { ok: true }));
    if (method === 'DELETE' && path.startsWith('/__faults/')) {
      const removed = parts.faults.remove(path.slice('/__faults/'.length));
      return send(res, removed ? 200 : 404, { ok: removed });
    }
    if (method === 'GET' && path === '/__config') return send(res, 200, parts.config);
    if (method === 'POST' && path === '/__config') {
      Object.assign(parts.config, ConfigSchema.parse(parse()));
      return send(res, 200, parts.config);
    }
    if (method === 'POST' && path === '/__reset') {
      parts.ledger.reset();
      parts.faults.clear();
      parts.notes.reset();
      parts.outbox.reset();
      parts.inbox.reset();
      parts.variation.reset();
      return send(res, 200, { ok: true });
    }
    if (method === 'GET' && path === '/mail/outbox')
      return send(res, 200, { deliveries: parts.outbox.list(runId).map(flatten) });
    if (method === 'GET' && path === '/approver/inbox')
      return send(res, 200, { requests: parts.inbox.list(runId).map(flatten) });
    if (method === 'GET' && path === '/tracker/notes')
      return send(res, 200, { notes: parts.notes.list(runId).map(flatten) });
    return send(res, 404, { error: `no control route ${method} ${path}` });
  } catch (err) {
    const message =
      err instanceof z.ZodError
        ? err.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')
        : String(err);
    return send(res, 400, { error: message });
  }
}
