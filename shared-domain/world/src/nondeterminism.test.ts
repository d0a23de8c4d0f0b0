import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { draftPrompt } from '@vendor-review/pipeline';
import { startWorld, worldClient, type World, type WorldClient } from './index.ts';

/**
 * The world's two halves of the nondeterminism hazard: a model whose answer varies when asked again
 * (off by default, on by a config switch or for one run by a `vary` fault), and receivers that
 * refuse an Idempotency-Key reused with a different body (422), as the IETF draft says, instead of
 * replaying the first answer as if the second message had been delivered.
 */
let world: World;
let client: WorldClient;

beforeAll(async () => {
  world = await startWorld({ modelLatencyMs: 0 });
  client = worldClient(world.url);
});
afterAll(() => world.stop());
beforeEach(async () => {
  await client.reset();
  await client.configure({ modelVaries: false });
});

const headers = (runId: string, step: string, extra: Record<string, string> = {}) => ({
  'Content-Type': 'application/json',
  'X-Run-Id': runId,
  'X-Step': step,
  'X-Attempt': '1',
  'X-Worker': 'T',
  ...extra,
});
const draftRequest = () => {
  const p = draftPrompt({
    vendorName: 'Acme',
    verdicts: [
      { question: 'SSO?', verdict: { requirementId: 'sso', status: 'confirmed', evidence: [], confidence: 0.9 } },
      { question: 'DPA?', verdict: { requirementId: 'dpa', status: 'missing', evidence: [], confidence: 0.4 } },
    ],
  });
  return {
    model: 'sim-4o-mini',
    messages: [
      { role: 'system', content: p.system },
      { role: 'user', content: p.user },
    ],
  };
};
async function draftText(runId: string): Promise<string> {
  const res = await fetch(`${world.url}/v1/chat/completions`, {
    method: 'POST',
    headers: headers(runId, 'DRAFT'),
    body: JSON.stringify(draftRequest()),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content;
}

describe('a model whose answer varies when asked again', () => {
  it('is off by default: the same request, the same answer, every time', async () => {
    expect((await client.config()).modelVaries).toBe(false);
    const first = await draftText('run-d');
    expect(await draftText('run-d')).toBe(first);
    expect(await draftText('run-d')).toBe(first);
  });

  it('switched on, answers a repeated request in other words, the facts kept; the first answer is the usual one', async () => {
    const usual = await draftText('run-usual');
    await client.configure({ modelVaries: true });
    const answers = [await draftText('run-v'), await draftText('run-v'), await draftText('run-v')];
    expect(answers[0]).toBe(usual);
    expect(new Set(answers).size).toBe(3);
    for (const a of answers) expect(a).toContain('1 confirmed, 0 denied, 0 contradictory and 1 missing');
    // Counted per run: another run asking the same thing starts from the usual answer again.
    expect(await draftText('run-w')).toBe(usual);
    const ledger = await client.ledger({ runId: 'run-v' });
    expect(new Set(ledger.map((e) => e.opKey)).size).toBe(1);
  });

  it('a `vary` fault does it for one run only, and says so on the ledger', async () => {
    await client.addFault({ route: 'model', kind: 'vary', times: 'forever', runId: 'run-f' });
    const [a, b] = [await draftText('run-f'), await draftText('run-f')];
    expect(a).not.toBe(b);
    expect(await draftText('run-g')).toBe(await draftText('run-g'));
    const entries = await client.ledger({ runId: 'run-f' });
    expect(entries.map((e) => [e.outcome, e.fault])).toEqual([
      ['ok', 'vary'],
      ['ok', 'vary'],
    ]);
  });
});

describe('receivers and a reused Idempotency-Key', () => {
  const send = (path: string, body: unknown, runId: string, key: string) =>
    fetch(`${world.url}${path}`, {
      method: 'POST',
      headers: headers(runId, path.startsWith('/mail') ? 'DELIVER' : 'SAVE_PROGRESS', { 'Idempotency-Key': key }),
      body: JSON.stringify(body),
    });

  it('the mailer refuses the key with a different body (422), delivers nothing, and the ledger says conflict', async () => {
    const mail = { to: 'a@example.com', subject: 'Review', body: 'Hello, draft one' };
    const first = await send('/mail/send', mail, 'run-m', 'k-1');
    const same = await send('/mail/send', mail, 'run-m', 'k-1');
    const other = await send('/mail/send', { ...mail, body: 'Hello, draft two' }, 'run-m', 'k-1');
    expect([first.status, same.status, other.status]).toEqual([201, 201, 422]);
    expect(same.headers.get('idempotent-replayed')).toBe('true');
    expect(((await other.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: 'idempotency_key_reused',
      message: expect.stringContaining('was used before with a different body'),
    });
    const outbox = await client.outbox('run-m');
    expect(outbox.map((d) => d.body)).toEqual(['Hello, draft one']);
    expect((await client.ledger({ runId: 'run-m' })).map((e) => [e.status, e.outcome])).toEqual([
      [201, 'ok'],
      [201, 'deduplicated'],
      [422, 'conflict'],
    ]);
    // The refusal remembers nothing: the first body still replays.
    expect((await send('/mail/send', mail, 'run-m', 'k-1')).status).toBe(201);
  });

  it('so does the tracker', async () => {
    const note = { runId: 'run-t', requirementId: 'sso', text: 'sso: confirmed' };
    expect((await send('/tracker/notes', note, 'run-t', 'n-1')).status).toBe(201);
    expect((await send('/tracker/notes', { ...note, text: 'sso: denied' }, 'run-t', 'n-1')).status).toBe(422);
    expect((await client.notes('run-t')).map((n) => n.text)).toEqual(['sso: confirmed']);
  });
});
