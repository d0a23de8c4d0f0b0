import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CallMeta } from '@vendor-review/pipeline';
import { startWorld, type World } from '../src/index.ts';
import { createHttpPorts, htmlToText, resolveModelOptions } from '@vendor-review/worker-io';

let world: World;
const meta = (extra: Partial<CallMeta> = {}): CallMeta => ({
  runId: 'run-a',
  step: 'FETCH',
  attempt: 3,
  worker: 'W',
  ...extra,
});

beforeAll(async () => {
  world = await startWorld({ modelLatencyMs: 20 });
});
afterAll(() => world.stop());
beforeEach(() => world.reset());

describe('web port', () => {
  it('returns readable text and the title, and sends the call identity as headers', async () => {
    const ports = createHttpPorts({ worldUrl: world.url });
    const page = await ports.web.get(`${world.url}/vendors/cobalt-mail/trust`, meta({ idempotencyKey: 'k' }));
    expect(page.title).toBe('Trust center | Cobalt Mail');
    expect(page.text.split('\n')).toContain("Cobalt Mail's SOC 2 Type II report is current and available under NDA.");
    expect(world.ledger()).toMatchObject([
      { runId: 'run-a', step: 'FETCH', attempt: 3, worker: 'W', idempotencyKey: 'k', kind: 'web' },
    ]);
  });

  it.each([
    ['429', 'TransientError'],
    ['503', 'TransientError'],
    ['drop', 'TransientError'],
    ['404', 'PermanentError'],
    ['422', 'PermanentError'],
  ] as const)('classifies %s as %s', async (kind, name) => {
    world.addFault({ route: 'web', kind });
    const err = await createHttpPorts({ worldUrl: world.url })
      .web.get(`${world.url}/vendors/acme-analytics/`, meta())
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ name });
    if (kind === 'drop') expect(err).toMatchObject({ code: 'ECONNRESET' });
  });

  it('turns a slow answer past its timeout into a transient timeout', async () => {
    world.addFault({ route: 'web', kind: 'slow', delayMs: 1_000 });
    const err = await createHttpPorts({ worldUrl: world.url, timeoutMs: 100 })
      .web.get(`${world.url}/vendors/acme-analytics/`, meta())
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'TransientError', code: 'timeout' });
    // The world notices the client leaving and records the request as aborted (not as served).
    await expect.poll(() => world.ledger().map((e) => [e.outcome, e.fault])).toEqual([['aborted', 'slow']]);
  });
});

describe('model port (official openai client against the world)', () => {
  const req = { system: 's', user: 'Vendor: V\nVerdicts:\n- [sso] confirmed (confidence 0.70): SSO?' };

  it('returns text, model and usage, with the call identity in the ledger and no client-side retry', async () => {
    const ports = createHttpPorts({ worldUrl: world.url });
    const reply = await ports.model.complete(req, meta({ step: 'DRAFT' }));
    expect(reply.model).toBe('sim-4o-mini');
    expect(reply.text).toContain('V was checked against 1 requirement');
    const [entry] = world.ledger();
    expect(entry).toMatchObject({
      kind: 'model',
      step: 'DRAFT',
      attempt: 3,
      worker: 'W',
      promptTokens: reply.usage.promptTokens,
      completionTokens: reply.usage.completionTokens,
    });
    world.addFault({ route: 'model', kind: '503' });
    await expect(ports.model.complete(req, meta())).rejects.toMatchObject({ name: 'TransientError', status: 503 });
    expect(world.ledger({ kind: 'model' })).toHaveLength(2);
  });

  it.each([
    ['429', 'TransientError'],
    ['drop', 'TransientError'],
    ['422', 'PermanentError'],
    ['404', 'PermanentError'],
  ] as const)('maps %s to %s', async (kind, name) => {
    world.addFault({ route: 'model', kind });
    await expect(createHttpPorts({ worldUrl: world.url }).model.complete(req, meta())).rejects.toMatchObject({ name });
  });

  it('takes base URL, key and model from options, then env, then the world', () => {
    expect(resolveModelOptions('http://w:1', {}, {})).toMatchObject({ baseURL: 'http://w:1/v1', model: 'sim-4o-mini' });
    expect(
      resolveModelOptions(
        'http://w:1',
        {},
        { OPENAI_BASE_URL: 'http://p/v1', OPENAI_API_KEY: 'sk', OPENAI_MODEL: 'm' },
      ),
    ).toMatchObject({ baseURL: 'http://p/v1', apiKey: 'sk', model: 'm' });
    expect(resolveModelOptions('http://w:1', { model: 'x' }, { OPENAI_MODEL: 'm' }).model).toBe('x');
    // OPENAI_MODEL, as the provider SDKs name it; a bare MODEL in someone's shell is not ours to read.
    expect(resolveModelOptions('http://w:1', {}, { MODEL: 'm' }).model).toBe('sim-4o-mini');
    expect(() => resolveModelOptions(undefined, {}, {})).toThrow(/OPENAI_BASE_URL/);
  });
});

describe('tracker and mailer ports', () => {
  it('report a replayed key as a duplicate receipt with the same id', async () => {
    const ports = createHttpPorts({ worldUrl: world.url });
    const m = meta({ step: 'DELIVER', idempotencyKey: 'mk' });
    const mail = { to: 'a@example.com', subject: 's', body: 'b' };
    const first = await ports.mailer.send(mail, m);
    const again = await ports.mailer.send(mail, m);
    expect(first.duplicate).toBe(false);
    expect(again).toEqual({ id: first.id, duplicate: true });
    const note = await ports.tracker.note(
      { runId: 'run-a', requirementId: 'sso', text: 't' },
      meta({ step: 'SAVE_PROGRESS' }),
    );
    expect(note.id).toMatch(/^note-/);
    world.addFault({ route: 'tracker', kind: '422' });
    await expect(ports.tracker.note({ runId: 'run-a', text: 't' }, meta())).rejects.toMatchObject({
      name: 'PermanentError',
      status: 422,
    });
  });
});

describe('html to text', () => {
  it('keeps main content as lines, drops scripts and chrome, decodes entities', () => {
    const html =
      '<html><head><title>T</title></head><body><nav>Menu</nav><main><h1>A &amp; B</h1><p>One  sentence.\n Two.</p><script>x()</script><ul><li>It&#39;s &lt;ok&gt;</li></ul></main><footer>F</footer></body></html>';
    expect(htmlToText(html)).toBe("A & B\nOne sentence. Two.\nIt's <ok>");
  });
});
