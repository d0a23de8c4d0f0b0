import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { extractPrompt } from '@vendor-review/pipeline';
import { FAULT_KINDS, startWorld, worldClient, VENDORS, type World, type WorldClient } from './index.ts';
import { countPromptTokens, costUsd } from './pricing.ts';

let world: World;
let client: WorldClient;

beforeAll(async () => {
  world = await startWorld({ modelLatencyMs: 40 });
  client = worldClient(world.url);
});
afterAll(() => world.stop());
beforeEach(() => client.reset());

const headers = (runId: string, step: string, extra: Record<string, string> = {}) => ({
  'X-Run-Id': runId,
  'X-Step': step,
  'X-Attempt': '1',
  'X-Worker': 'T',
  ...extra,
});
const post = (path: string, body: unknown, h: Record<string, string>, signal?: AbortSignal) =>
  fetch(`${world.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...h },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
const chat = (user: string, model = 'sim-4o-mini') => ({
  model,
  messages: [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: user },
  ],
});
const samplePrompt = () =>
  extractPrompt({
    requirementId: 'sso',
    question: 'Is SSO available?',
    keywords: ['SSO', 'single sign-on'],
    pages: [
      { url: 'http://v/a', title: 'A', text: 'We love customers.\nSingle sign-on is not available on Team.' },
      { url: 'http://v/b', title: 'B', text: 'SSO is included in every plan. SSO rocks.' },
      { url: 'http://v/c', title: 'C', text: 'Nothing here.' },
    ],
  }).user;

describe('vendor sites', () => {
  it('serves at least 3 vendors with at least 5 HTML pages each, all listed in the sitemap', async () => {
    expect(VENDORS.length).toBeGreaterThanOrEqual(3);
    for (const v of VENDORS) {
      const sitemap = (await (await fetch(`${world.url}/vendors/${v.slug}/sitemap.json`)).json()) as {
        pages: { url: string; title: string; kind: string }[];
      };
      expect(sitemap.pages.length).toBeGreaterThanOrEqual(5);
      for (const p of sitemap.pages) {
        const res = await fetch(p.url);
        expect(res.status, p.url).toBe(200);
        expect(res.headers.get('content-type')).toContain('text/html');
        expect(await res.text()).toContain(`<title>${p.title}`);
      }
    }
    expect((await client.ledger()).filter((e) => e.kind === 'web' && e.outcome === 'ok').length).toBeGreaterThanOrEqual(
      18,
    );
  });

  it('answers an unknown page with 404 and records it as an error', async () => {
    expect((await fetch(`${world.url}/vendors/acme-analytics/careers`)).status).toBe(404);
    expect(await client.ledger()).toMatchObject([
      { kind: 'web', status: 404, outcome: 'error', opKey: 'GET /vendors/acme-analytics/careers' },
    ]);
  });
});

describe('model', () => {
  it('answers an extract prompt with per-page findings, deterministically, with real usage and cost in the ledger', async () => {
    const body = chat(samplePrompt());
    const first = await post('/v1/chat/completions', body, headers('run-m', 'EXTRACT'));
    const second = await post('/v1/chat/completions', body, headers('run-m', 'EXTRACT', { 'X-Attempt': '2' }));
    const text = await first.text();
    expect(await second.text()).toBe(text);
    const reply = JSON.parse(text) as {
      model: string;
      choices: { message: { content: string } }[];
      usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
    };
    expect(JSON.parse(reply.choices[0]!.message.content)).toEqual({
      findings: [
        { url: 'http://v/a', found: true, answer: 'no', quote: 'Single sign-on is not available on Team.' },
        { url: 'http://v/b', found: true, answer: 'yes', quote: 'SSO is included in every plan.' },
        { url: 'http://v/c', found: false, answer: 'unclear', quote: '' },
      ],
    });
    expect(reply.usage.prompt_tokens).toBe(countPromptTokens(body.messages));
    expect(reply.usage.total_tokens).toBe(reply.usage.prompt_tokens + reply.usage.completion_tokens);
    const entries = await client.ledger({ runId: 'run-m' });
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      kind: 'model',
      step: 'EXTRACT',
      attempt: 1,
      worker: 'T',
      outcome: 'ok',
      status: 200,
      model: 'sim-4o-mini',
      promptTokens: reply.usage.prompt_tokens,
      completionTokens: reply.usage.completion_tokens,
    });
    expect(entries[0]!.costUsd).toBeCloseTo(
      costUsd('sim-4o-mini', reply.usage.prompt_tokens, reply.usage.completion_tokens)!,
      12,
    );
    expect(entries[0]!.costUsd).toBeGreaterThan(0);
    expect(entries[1]!.attempt).toBe(2);
    expect(entries[1]!.opKey).toBe(entries[0]!.opKey);
    expect(entries[0]!.durationMs).toBeGreaterThanOrEqual(35);
  });

  it('bills the prompt of a call whose client left before the answer, and records it as aborted', async () => {
    await client.configure({ modelLatencyMs: 400 });
    try {
      const controller = new AbortController();
      const pending = post(
        '/v1/chat/completions',
        chat(samplePrompt()),
        headers('run-abort', 'EXTRACT'),
        controller.signal,
      ).catch((e: unknown) => e);
      setTimeout(() => controller.abort(), 80);
      expect(await pending).toBeInstanceOf(Error);
      await expect.poll(() => client.ledger({ runId: 'run-abort' })).toHaveLength(1);
      const [entry] = await client.ledger({ runId: 'run-abort' });
      expect(entry).toMatchObject({ outcome: 'aborted', status: 0, completionTokens: 0 });
      expect(entry!.promptTokens).toBeGreaterThan(100);
      expect(entry!.costUsd).toBeCloseTo(costUsd('sim-4o-mini', entry!.promptTokens, 0)!, 12);
      expect(entry!.durationMs).toBeLessThan(400);
    } finally {
      await client.configure({ modelLatencyMs: 40 });
    }
  });

  it('writes a markdown review from verdicts and refuses unknown models like a provider does', async () => {
    const draft = await post(
      '/v1/chat/completions',
      chat(
        'Vendor: Acme\nVerdicts:\n- [sso] contradictory (confidence 0.50): Is SSO available?\n- [dpa] confirmed (confidence 0.70): DPA?',
      ),
      headers('run-d', 'DRAFT'),
    );
    const content = ((await draft.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message
      .content;
    expect(content).toContain(
      'Acme was checked against 2 requirements: 1 confirmed, 0 denied, 1 contradictory and 0 missing.',
    );
    expect(content).toContain('- **sso**: the vendor');
    const unknown = await post('/v1/chat/completions', chat('hi', 'gpt-99'), headers('run-d', 'DRAFT'));
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('model_not_found');
  });
});

describe('tracker and mailer', () => {
  const mail = { to: 'a@example.com', subject: 'Review', body: 'Hello' };

  it('collapses a duplicate POST with the same Idempotency-Key: same id and body, one delivery', async () => {
    const a = await post('/mail/send', mail, headers('run-i', 'DELIVER', { 'Idempotency-Key': 'k-1' }));
    const b = await post(
      '/mail/send',
      mail,
      headers('run-i', 'DELIVER', { 'Idempotency-Key': 'k-1', 'X-Attempt': '2' }),
    );
    const bodyA = await a.text();
    expect(await b.text()).toBe(bodyA);
    expect(b.status).toBe(a.status);
    expect(a.headers.get('idempotent-replayed')).toBeNull();
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(await client.outbox('run-i')).toHaveLength(1);
    expect((await client.ledger({ runId: 'run-i' })).map((e) => [e.outcome, e.idempotencyKey])).toEqual([
      ['ok', 'k-1'],
      ['deduplicated', 'k-1'],
    ]);
  });

  it('delivers every POST without a key, so a retried send is a second mail', async () => {
    await post('/mail/send', mail, headers('run-n', 'DELIVER'));
    await post('/mail/send', mail, headers('run-n', 'DELIVER'));
    const outbox = await client.outbox('run-n');
    expect(outbox).toHaveLength(2);
    expect(outbox[0]!.id).not.toBe(outbox[1]!.id);
    const entries = await client.ledger({ runId: 'run-n' });
    expect(entries.map((e) => e.outcome)).toEqual(['ok', 'ok']);
    expect(entries[0]!.opKey).toBe(entries[1]!.opKey);
  });

  it('keys tracker notes the same way and refuses a malformed note', async () => {
    const note = { runId: 'run-t', requirementId: 'sso', text: 'sso: contradictory' };
    const h = headers('run-t', 'SAVE_PROGRESS', { 'Idempotency-Key': 'n-1' });
    const ids = await Promise.all(
      [post('/tracker/notes', note, h), post('/tracker/notes', note, h)].map(
        async (r) => ((await (await r).json()) as { id: string }).id,
      ),
    );
    expect(ids[0]).toBe(ids[1]);
    expect(await client.notes('run-t')).toHaveLength(1);
    expect((await post('/tracker/notes', { runId: 'run-t' }, h)).status).toBe(422);
    expect((await client.ledger({ runId: 'run-t' })).map((e) => e.opKey)).toEqual([
      'note:sso',
      'note:sso',
      expect.stringMatching(/^note:/),
    ]);
  });

  it("the approver's inbox is a receiver and a ledger kind of its own, keyed like the others", async () => {
    const ask = { runId: 'run-q', vendor: 'Acme', summary: 'Send the review?' };
    await post('/approver/notify', ask, headers('run-q', 'AWAIT_APPROVAL'));
    await post('/approver/notify', ask, headers('run-q', 'AWAIT_APPROVAL'));
    const h = headers('run-q', 'ASK_APPROVAL', { 'Idempotency-Key': 'q-1' });
    await post('/approver/notify', ask, h);
    expect((await post('/approver/notify', ask, h)).headers.get('idempotent-replayed')).toBe('true');
    expect((await post('/approver/notify', { runId: 'run-q' }, h)).status).toBe(422);
    expect(await client.inbox('run-q')).toHaveLength(3);
    expect(await client.outbox('run-q')).toEqual([]);
    const entries = await client.ledger({ runId: 'run-q', kind: 'approver' });
    expect(entries.map((e) => [e.outcome, e.subject])).toEqual([
      ['ok', 'approval request'],
      ['ok', 'approval request'],
      ['ok', 'approval request'],
      ['deduplicated', 'approval request'],
      ['error', 'approval request'],
    ]);
    expect(new Set(entries.slice(0, 4).map((e) => e.opKey))).toEqual(new Set(['ask:run-q']));
  });
});

describe('fault injection', () => {
  it.each(['429', '503', '404', '422'] as const)(
    '%s fires for the next N matching requests, then clears',
    async (kind) => {
      await client.addFault({ route: '/vendors/acme-analytics/pricing', kind, times: 2 });
      const url = `${world.url}/vendors/acme-analytics/pricing`;
      const statuses = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await fetch(url, { headers: headers(`run-${kind}`, 'FETCH') })).status);
      expect(statuses).toEqual([Number(kind), Number(kind), 200]);
      expect((await client.ledger({ runId: `run-${kind}` })).map((e) => [e.outcome, e.fault ?? null])).toEqual([
        ['fault', kind],
        ['fault', kind],
        ['ok', null],
      ]);
      expect(await client.faults()).toEqual([]);
    },
  );

  it('drop destroys the socket once, then the route answers again', async () => {
    await client.addFault({ route: 'web', kind: 'drop' });
    await expect(fetch(`${world.url}/vendors/borealis-crm/`)).rejects.toThrow();
    expect((await fetch(`${world.url}/vendors/borealis-crm/`)).status).toBe(200);
    expect((await client.ledger()).map((e) => [e.status, e.outcome, e.fault ?? null])).toEqual([
      [0, 'fault', 'drop'],
      [200, 'ok', null],
    ]);
  });

  it('slow delays the answer, which still arrives', async () => {
    await client.addFault({ route: '/mail/send', kind: 'slow', delayMs: 300 });
    const started = Date.now();
    expect(
      (await post('/mail/send', { to: 'a@b.c', subject: 's', body: 'b' }, headers('run-s', 'DELIVER'))).status,
    ).toBe(201);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(await client.ledger({ runId: 'run-s' })).toMatchObject([{ outcome: 'ok', fault: 'slow', status: 201 }]);
  });

  it('forever lasts until deleted; runId and step narrow a rule to one run', async () => {
    const forever = await client.addFault({ route: 'model', kind: '503', times: 'forever', runId: 'run-f' });
    await client.addFault({ route: 'tracker', kind: '429', step: 'SAVE_PROGRESS', times: 5 });
    for (let i = 0; i < 3; i++)
      expect((await post('/v1/chat/completions', chat('hi'), headers('run-f', 'EXTRACT'))).status).toBe(503);
    expect((await post('/v1/chat/completions', chat('hi'), headers('run-other', 'EXTRACT'))).status).toBe(200);
    expect((await post('/tracker/notes', { runId: 'r', text: 't' }, headers('r', 'OTHER'))).status).toBe(201);
    expect((await post('/tracker/notes', { runId: 'r', text: 't' }, headers('r', 'SAVE_PROGRESS'))).status).toBe(429);
    expect((await client.faults()).find((f) => f.id === forever.id)).toMatchObject({ remaining: 'forever', fired: 3 });
    await client.removeFault(forever.id);
    expect((await post('/v1/chat/completions', chat('hi'), headers('run-f', 'EXTRACT'))).status).toBe(200);
    await client.clearFaults();
    expect(await client.faults()).toEqual([]);
  });

  it('refuses a fault rule it does not understand, naming the kinds it knows', async () => {
    const res = await fetch(`${world.url}/__faults`, {
      method: 'POST',
      body: JSON.stringify({ route: '/x', kind: '418' }),
    });
    expect(res.status).toBe(400);
    const error = ((await res.json()) as { error: string }).error;
    expect(error).toMatch(/^kind: /);
    for (const kind of FAULT_KINDS) expect(error).toContain(`"${kind}"`);
  });
});

describe('ledger', () => {
  it('filters by run and kind, survives nothing after a reset, and keeps seq growing', async () => {
    await fetch(`${world.url}/vendors/cobalt-mail/`, { headers: headers('run-l1', 'FETCH') });
    await post('/v1/chat/completions', chat('hi'), headers('run-l2', 'EXTRACT'));
    const all = await client.ledger();
    expect(all.map((e) => e.kind)).toEqual(['web', 'model']);
    expect(await client.ledger({ runId: 'run-l2', kind: 'web' })).toEqual([]);
    expect(all[0]).toEqual({
      seq: expect.any(Number),
      at: expect.any(Number),
      runId: 'run-l1',
      step: 'FETCH',
      attempt: 1,
      worker: 'T',
      idempotencyKey: null,
      kind: 'web',
      method: 'GET',
      path: '/vendors/cobalt-mail/',
      opKey: 'GET /vendors/cobalt-mail/',
      subject: 'GET /vendors/cobalt-mail/',
      status: 200,
      outcome: 'ok',
      promptTokens: 0,
      completionTokens: 0,
      costUsd: 0,
      durationMs: expect.any(Number),
    });
    await client.resetLedger();
    expect(await client.ledger()).toEqual([]);
    await fetch(`${world.url}/vendors/cobalt-mail/`);
    expect((await client.ledger())[0]!.seq).toBeGreaterThan(all[1]!.seq);
    expect(world.ledger()).toHaveLength(1);
  });
});
