import { htmlTitle, htmlToText } from '@vendor-review/worker-io';
import {
  PermanentError,
  type ApprovalRequest,
  type CallMeta,
  type Mail,
  type ModelRequest,
  type Ports,
  type TrackerNote,
} from '@vendor-review/pipeline';
import { simulateCompletion } from './sim-model.ts';
import { renderSitemap, renderVendorPage, vendorPagePath } from './vendors/render.ts';
import { VENDORS } from './vendors/index.ts';

export const FAKE_ORIGIN = 'http://vendors.test';

export type FakeCall =
  | { kind: 'web'; url: string; meta: CallMeta }
  | { kind: 'model'; req: ModelRequest; meta: CallMeta }
  | { kind: 'tracker'; note: TrackerNote; meta: CallMeta }
  | { kind: 'mail'; mail: Mail; meta: CallMeta }
  | { kind: 'approver'; request: ApprovalRequest; meta: CallMeta };

/**
 * In-memory ports for unit tests: the world's vendor sites and simulated model without HTTP, and a
 * tracker and mailer that honour idempotency keys. Every call is recorded; `model` can be replaced
 * to feed a step a bad answer.
 */
export function fakePorts(overrides: { model?: (req: ModelRequest) => string } = {}): Ports & { calls: FakeCall[] } {
  const calls: FakeCall[] = [];
  const pages = new Map<string, string>();
  for (const vendor of VENDORS) {
    pages.set(`${FAKE_ORIGIN}/vendors/${vendor.slug}/sitemap.json`, JSON.stringify(renderSitemap(vendor, FAKE_ORIGIN)));
    for (const page of vendor.pages)
      pages.set(`${FAKE_ORIGIN}${vendorPagePath(vendor, page)}`, renderVendorPage(vendor, page));
  }
  const seenKeys = new Map<string, string>();
  let ids = 0;
  const receipt = (meta: CallMeta, prefix: string) => {
    const known = meta.idempotencyKey ? seenKeys.get(meta.idempotencyKey) : undefined;
    if (known) return { id: known, duplicate: true };
    const id = `${prefix}-${++ids}`;
    if (meta.idempotencyKey) seenKeys.set(meta.idempotencyKey, id);
    return { id, duplicate: false };
  };
  return {
    calls,
    web: {
      async get(url, meta) {
        calls.push({ kind: 'web', url, meta });
        const body = pages.get(url);
        if (body === undefined) throw new PermanentError(`GET ${url} -> HTTP 404`, 'http-404', 404);
        const html = !url.endsWith('.json');
        return { url, status: 200, title: html ? htmlTitle(body) : '', text: html ? htmlToText(body) : body };
      },
    },
    model: {
      async complete(req, meta) {
        calls.push({ kind: 'model', req, meta });
        const text = overrides.model ? overrides.model(req) : simulateCompletion(req.user);
        return { text, model: 'fake-model', usage: { promptTokens: req.user.length, completionTokens: text.length } };
      },
    },
    tracker: {
      async note(note, meta) {
        calls.push({ kind: 'tracker', note, meta });
        return receipt(meta, 'note');
      },
    },
    mailer: {
      async send(mail, meta) {
        calls.push({ kind: 'mail', mail, meta });
        return receipt(meta, 'msg');
      },
    },
    approver: {
      async notify(request, meta) {
        calls.push({ kind: 'approver', request, meta });
        return receipt(meta, 'ask');
      },
    },
  };
}
