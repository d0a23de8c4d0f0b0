import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the examples call: a small vendor API (a profile to read, tickets to open, notices to send)
 * and an OpenAI-compatible model on one local port. It counts every request it is sent, so a test
 * can tell a call the crash test says went out again from one that really did (--live).
 */
export interface ExampleServices {
  url: string;
  received: { method: string; path: string; idempotencyKey: string | null }[];
  close(): Promise<void>;
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export async function startExampleServices(): Promise<ExampleServices> {
  const received: ExampleServices['received'] = [];
  let tickets = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      const key = req.headers['idempotency-key'];
      received.push({ method: req.method ?? 'GET', path, idempotencyKey: typeof key === 'string' ? key : null });
      const vendor = /^\/vendors\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && vendor)
        return json(res, 200, { id: vendor[1], name: `Vendor ${vendor[1]}`, soc2: false });
      if (req.method === 'POST' && path === '/v1/chat/completions') {
        const asked =
          (JSON.parse(body || '{}') as { messages?: { content?: string }[] }).messages?.at(-1)?.content ?? '';
        return json(res, 200, {
          id: 'chatcmpl-example',
          object: 'chat.completion',
          model: 'example-model',
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: `risk: high (${asked.length} chars read)` },
              finish_reason: 'stop',
            },
          ],
          usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 },
        });
      }
      if (req.method === 'POST' && path === '/tickets') return json(res, 201, { ticket: `T-${++tickets}` });
      if (req.method === 'POST' && path === '/notify') return json(res, 202, { queued: true });
      json(res, 404, { error: `no ${req.method} ${path}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
