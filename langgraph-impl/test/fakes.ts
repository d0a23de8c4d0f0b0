import {
  PermanentError,
  TransientError,
  applyApproval,
  callMeta,
  deadLetter,
  parseReviewRequest,
  type CallMeta,
  type FetchTarget,
  type Mail,
  type Ports,
  type ReviewRequestInput,
  type ReviewState,
  type StateUpdate,
  type StepContext,
} from '@vendor-review/pipeline';
import type { DomainSteps } from '../src/nodes.ts';

/** An in-memory stand-in for the world: records every call, honours idempotency keys, injects faults. */
export interface FakeCall {
  kind: 'web' | 'model' | 'tracker' | 'mail' | 'approver';
  op: string;
  meta: CallMeta;
  outcome: 'ok' | 'deduplicated' | 'fault';
}

export type FaultRule = {
  kind: FakeCall['kind'];
  match?: string;
  error: 'transient' | 'permanent';
  times: number | 'forever';
};

export function fakePorts() {
  const calls: FakeCall[] = [];
  const faults: FaultRule[] = [];
  const seenKeys = new Map<string, string>();
  let ids = 0;
  const maybeFail = (kind: FakeCall['kind'], op: string, meta: CallMeta) => {
    const rule = faults.find(
      (f) => f.kind === kind && (!f.match || op.includes(f.match)) && (f.times === 'forever' || f.times > 0),
    );
    if (!rule) return;
    if (rule.times !== 'forever') rule.times -= 1;
    calls.push({ kind, op, meta, outcome: 'fault' });
    throw rule.error === 'transient'
      ? new TransientError(`${op}: 503`, 'unavailable', 503)
      : new PermanentError(`${op}: 422`, 'unprocessable', 422);
  };
  const receipt = (kind: 'tracker' | 'mail' | 'approver', op: string, meta: CallMeta) => {
    maybeFail(kind, op, meta);
    const known = meta.idempotencyKey ? seenKeys.get(meta.idempotencyKey) : undefined;
    if (known) {
      calls.push({ kind, op, meta, outcome: 'deduplicated' });
      return { id: known, duplicate: true };
    }
    const id = `${kind}-${++ids}`;
    if (meta.idempotencyKey) seenKeys.set(meta.idempotencyKey, id);
    calls.push({ kind, op, meta, outcome: 'ok' });
    return { id, duplicate: false };
  };
  const ports: Ports = {
    web: {
      async get(url, meta) {
        maybeFail('web', url, meta);
        calls.push({ kind: 'web', op: url, meta, outcome: 'ok' });
        return { url, status: 200, title: url.split('/').pop() ?? url, text: `page ${url} says yes` };
      },
    },
    model: {
      async complete(req, meta) {
        const op = `model:${meta.step}:${req.user.slice(0, 40)}`;
        maybeFail('model', op, meta);
        calls.push({ kind: 'model', op, meta, outcome: 'ok' });
        return { text: `answer to ${req.user}`, model: 'fake', usage: { promptTokens: 10, completionTokens: 5 } };
      },
    },
    tracker: { note: async (note, meta) => receipt('tracker', `note:${note.requirementId}`, meta) },
    mailer: { send: async (mail, meta) => receipt('mail', `mail:${mail.subject}`, meta) },
    approver: { notify: async (request, meta) => receipt('approver', `ask:${request.runId}`, meta) },
  };
  return { ports, calls, faults };
}

/** Steps that honour the contract with as little logic as possible. */
export const fakeSteps: DomainSteps = {
  async validate(state) {
    const request = parseReviewRequest(state.request);
    return { request, pending: request.requirements.map((r) => r.id) };
  },
  async discover(state, ports, ctx) {
    await ports.web.get(`${state.request.vendor.baseUrl}/sitemap.json`, meta(ctx));
    const base = state.request.vendor.baseUrl;
    return { pages: ['home', 'security', 'legal'].map((kind) => ({ url: `${base}/${kind}`, title: kind, kind })) };
  },
  async selectRequirement(state) {
    return { current: { requirementId: state.pending[0]!, candidates: [] } };
  },
  async selectPage(state) {
    return { current: { requirementId: state.current!.requirementId, candidates: state.pages.map((p) => p.url) } };
  },
  async fetchPage(_state, ports, ctx, target: FetchTarget) {
    const page = await ports.web.get(target.url, meta(ctx));
    return { fetched: { [target.url]: { url: page.url, title: page.title, text: page.text } } };
  },
  async extract(state, ports, ctx) {
    const req = state.current!.requirementId;
    const reply = await ports.model.complete({ system: 'extract', user: `${req}?` }, meta(ctx));
    return {
      findings: {
        [req]: state.current!.candidates.map((url) => ({
          url,
          found: true,
          answer: 'yes' as const,
          quote: reply.text.slice(0, 10),
        })),
      },
    };
  },
  async verify(state) {
    const req = state.current!.requirementId;
    return { verdicts: { [req]: { requirementId: req, status: 'confirmed' as const, evidence: [], confidence: 0.9 } } };
  },
  async saveProgress(state, ports, ctx) {
    const req = state.current!.requirementId;
    const r = await ports.tracker.note({ runId: state.runId, requirementId: req, text: `saved ${req}` }, meta(ctx));
    return { progressNotes: { [req]: r.id }, pending: state.pending.filter((p) => p !== req), current: null };
  },
  async draft(state, ports, ctx) {
    const reply = await ports.model.complete(
      { system: 'draft', user: `draft ${Object.keys(state.verdicts).sort().join(',')}` },
      meta(ctx),
    );
    return { draft: { text: reply.text, model: reply.model } };
  },
  approvalQuestion(state) {
    return { runId: state.runId, vendor: state.request.vendor.name, summary: 'approve?' };
  },
  async askApprover(state, ports, ctx) {
    const question = fakeSteps.approvalQuestion(state);
    await ports.approver.notify(question, callMeta(ctx));
    return question;
  },
  applyApproval,
  composeDelivery(state: ReviewState): Mail {
    return {
      to: state.request.requester.email,
      subject: `Review of ${state.request.vendor.name}`,
      body: state.draft?.text ?? '',
    };
  },
  async deliver(state, ports, ctx): Promise<StateUpdate> {
    const mail = fakeSteps.composeDelivery(state);
    const r = await ports.mailer.send(mail, meta(ctx));
    return { delivery: { messageId: r.id, duplicate: r.duplicate, to: mail.to } };
  },
  deadLetter,
};

function meta(ctx: StepContext): CallMeta {
  return {
    runId: ctx.run.runId,
    step: ctx.step,
    attempt: ctx.attempt,
    worker: ctx.worker,
    ...(ctx.idempotencyKey ? { idempotencyKey: ctx.idempotencyKey } : {}),
  };
}

export function sampleRequest(baseUrl = 'http://vendor.test'): ReviewRequestInput {
  return {
    vendor: { name: 'Acme Cloud', baseUrl },
    requirements: [
      { id: 'soc2', question: 'Is SOC 2 Type II current?' },
      { id: 'dpa', question: 'Is a DPA offered to customers?' },
    ],
    requester: { name: 'Priya Raman', email: 'priya@example.com' },
  };
}
