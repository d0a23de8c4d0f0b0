import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpPorts } from '@vendor-review/worker-io';
import { costUsd, startWorld, summarizeLedger, type World } from './index.ts';

/**
 * `--model-upstream`: the world forwards model calls to a real OpenAI-compatible provider and still
 * counts them. The provider here is a second world (a real OpenAI-compatible server with real token
 * counts); the unknown-price case needs a model no price table has, so a tiny provider plays it.
 */
const meta = (runId: string) => ({ runId, step: 'EXTRACT' as const, attempt: 1, worker: 'A' });
const req = { system: 'You extract facts.', user: 'Vendor: Acme\nQuestion: SOC 2?', maxTokens: 200 };

describe('the world in front of a real provider', () => {
  let provider: World;
  let front: World;
  beforeAll(async () => {
    provider = await startWorld({ modelLatencyMs: 0 });
    front = await startWorld({
      modelUpstream: { baseUrl: `${provider.url}/v1`, model: 'sim-4o', apiKey: 'sk-upstream' },
    });
  });
  afterAll(async () => {
    await front?.stop();
    await provider?.stop();
  });

  it('forwards the call with the configured model and records the provider usage and its price', async () => {
    const reply = await createHttpPorts({ worldUrl: front.url }).model.complete(req, meta('rev-up-1'));
    const [counted] = front.ledger({ kind: 'model' });
    const [served] = provider.ledger({ kind: 'model' });
    // The pipeline asked for its own default; the provider was asked for OPENAI_MODEL.
    expect(served!.model).toBe('sim-4o');
    expect(reply.model).toBe('sim-4o');
    expect(counted).toMatchObject({
      runId: 'rev-up-1',
      step: 'EXTRACT',
      worker: 'A',
      outcome: 'ok',
      model: 'sim-4o',
      promptTokens: served!.promptTokens,
      completionTokens: served!.completionTokens,
    });
    expect(counted!.promptTokens).toBeGreaterThan(10);
    expect(counted!.costUsd).toBe(costUsd('sim-4o', served!.promptTokens, served!.completionTokens));
    expect(counted!.costUsd).toBeGreaterThan(0);
  });

  it("a provider's error is passed on and counted as an error", async () => {
    provider.addFault({ route: 'model', kind: '429' });
    await expect(createHttpPorts({ worldUrl: front.url }).model.complete(req, meta('rev-up-2'))).rejects.toThrow();
    const [counted] = front.ledger({ runId: 'rev-up-2', kind: 'model' });
    expect(counted).toMatchObject({ status: 429, outcome: 'error', promptTokens: 0 });
  });
});

describe('a model without a price', () => {
  let provider: Server;
  let front: World;
  const seen: IncomingHttpHeaders[] = [];
  beforeAll(async () => {
    provider = createServer((r, res) => {
      seen.push(r.headers);
      r.resume().on('end', () =>
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(
          JSON.stringify({
            id: 'x',
            object: 'chat.completion',
            created: 0,
            model: 'acme-llm-1',
            choices: [{ index: 0, message: { role: 'assistant', content: '{}' }, finish_reason: 'stop' }],
            usage: { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 },
          }),
        ),
      );
    });
    await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
    const port = (provider.address() as AddressInfo).port;
    front = await startWorld({
      modelUpstream: { baseUrl: `http://127.0.0.1:${port}/v1`, model: 'acme-llm-1', apiKey: 'sk-acme' },
    });
  });
  afterAll(async () => {
    await front?.stop();
    provider?.close();
  });

  it('is counted with its tokens and its cost is unknown, not $0', async () => {
    await createHttpPorts({ worldUrl: front.url }).model.complete(req, meta('rev-up-3'));
    expect(seen[0]!.authorization).toBe('Bearer sk-acme');
    const entries = front.ledger({ kind: 'model' });
    expect(entries[0]).toMatchObject({ model: 'acme-llm-1', promptTokens: 42, completionTokens: 7, costUsd: null });
    expect(summarizeLedger(entries).costUsd).toBeNull();
  });

  it('a dated snapshot of a priced model costs what its family costs', () => {
    expect(costUsd('gpt-4o-mini-2024-07-18', 1_000_000, 0)).toBe(0.15);
    expect(costUsd('acme-llm-1', 1, 1)).toBeNull();
  });
});
