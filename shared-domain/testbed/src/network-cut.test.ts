import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NetworkCut, addressesIn } from './network-cut.ts';

/** An echo server on loopback or a socket path; its address and a closer. */
async function echo(path?: string): Promise<{ port: number; close: () => Promise<void> }> {
  const server = net.createServer((s) => s.on('error', () => {}).pipe(s));
  await new Promise<void>((r) => (path ? server.listen(path, r) : server.listen(0, '127.0.0.1', r)));
  return {
    port: path ? 0 : (server.address() as net.AddressInfo).port,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** Connects, sends `text`, and says what came back or how the connection failed. */
function roundTrip(at: { port: number } | { path: string }, text = 'ping'): Promise<string> {
  return new Promise((resolve) => {
    const s = 'path' in at ? net.connect(at.path) : net.connect(at.port, '127.0.0.1');
    s.once('data', (d) => {
      resolve(d.toString());
      s.destroy();
    });
    s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
    s.once('close', () => resolve('closed'));
    s.write(text);
  });
}

/** How a refused connection shows, depending on whether the write or the reset came first. */
const REFUSED = /^(ECONNRESET|EPIPE|closed)$/;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

describe('addressesIn', () => {
  it('finds the host and port in URLs and bare addresses, and nothing in other values', () => {
    expect(addressesIn('postgres://postgres@127.0.0.1:5432/db_1?sslmode=disable')).toEqual(['127.0.0.1:5432']);
    expect(addressesIn('http://localhost:8080')).toEqual(['localhost:8080']);
    expect(addressesIn('127.0.0.1:7233')).toEqual(['127.0.0.1:7233']);
    expect(addressesIn('http://[::1]:9070/deployments')).toEqual(['[::1]:9070']);
    expect(addressesIn('3000')).toEqual([]);
    expect(addressesIn('mid-model:stop')).toEqual([]);
    expect(addressesIn('/tmp/x/000001-A.sock')).toEqual([]);
  });
});

describe('NetworkCut', () => {
  it('routes every address but the kept ones, passes traffic, cuts open connections, refuses new ones, and heals', async () => {
    const store = await echo();
    closers.push(store.close);
    const cut = new NetworkCut();
    closers.push(() => cut.close());
    const spec = await cut.route(
      {
        entry: 'worker.ts',
        env: {
          DATABASE_URL: `postgres://u@127.0.0.1:${store.port}/db`,
          ALSO_THE_STORE: `127.0.0.1:${store.port}`,
          WORLD_URL: 'http://127.0.0.1:1234',
          CRASH_PLAN: 'mid-model:stop',
          UNSET: undefined,
        },
      },
      { keep: ['http://127.0.0.1:1234'] },
    );
    expect(spec.env.WORLD_URL).toBe('http://127.0.0.1:1234');
    expect(spec.env.CRASH_PLAN).toBe('mid-model:stop');
    expect('UNSET' in spec.env).toBe(false);
    const proxied = addressesIn(spec.env.DATABASE_URL!)[0]!;
    expect(proxied).not.toBe(`127.0.0.1:${store.port}`);
    // one proxy per address, whichever variable names it
    expect(spec.env.ALSO_THE_STORE).toBe(proxied);
    const port = Number(proxied.split(':')[1]);

    expect(await roundTrip({ port })).toBe('ping');

    const open = net.connect(port, '127.0.0.1');
    await new Promise((r) => open.once('connect', r));
    open.write('x');
    await new Promise((r) => open.once('data', r));
    const ended = new Promise<string>((r) => {
      open.once('error', (e: NodeJS.ErrnoException) => r(e.code ?? 'error'));
      open.once('close', () => r('closed'));
    });
    cut.cut();
    expect(await ended).toBe('ECONNRESET');
    expect(await roundTrip({ port })).toMatch(REFUSED);
    expect(cut.counts).toEqual({ reset: 1, refused: 1 });

    cut.heal();
    expect(await roundTrip({ port }, 'again')).toBe('again');
  });

  it('stands in front of a socket the worker listens on: the server reaches it through the cut', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cut-test-'));
    closers.push(async () => rmSync(dir, { recursive: true, force: true }));
    const cut = new NetworkCut();
    closers.push(() => cut.close());
    const where = join(dir, '000001-A.sock');
    const spec = await cut.route(
      {
        entry: 'w.ts',
        env: { ENDPOINT_SOCKET: where, DEPLOYMENT_URL: 'http://127.0.0.1:4321' },
        listens: ['ENDPOINT_SOCKET'],
        advertises: ['DEPLOYMENT_URL'],
      },
      { keep: [] },
    );
    expect(spec.env.ENDPOINT_SOCKET).not.toBe(where);
    expect(spec.env.DEPLOYMENT_URL).toBe('http://127.0.0.1:4321');
    const endpoint = await echo(spec.env.ENDPOINT_SOCKET);
    closers.push(endpoint.close);

    expect(await roundTrip({ path: where })).toBe('ping');
    cut.cut();
    expect(await roundTrip({ path: where })).toMatch(REFUSED);
    cut.heal();
    expect(await roundTrip({ path: where }, 'back')).toBe('back');
  });
});
