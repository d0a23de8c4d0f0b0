/**
 * The Restate server as the harness starts it: a restate-server from npm on loopback, ready when
 * both APIs answer and every partition runs; restarted (SIGKILL, SIGTERM) on the same ports and
 * state, where a deployment and a finished invocation are still there afterwards; and a user's own
 * server named by RESTATE_ADMIN_URL and RESTATE_INGRESS_URL, which the harness never stops.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http2 from 'node:http2';
import net from 'node:net';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InfraError, isProcessAlive } from '@vendor-review/testbed';
import { freePort } from '@vendor-review/worker-io';
import { RESTATE_SERVER, type RestateServer } from './spec.ts';

// The SDK calls Promise.withResolvers, which Node 20 lacks; defined before the SDK is loaded.
const promiseCtor = Promise as unknown as { withResolvers?: unknown };
promiseCtor.withResolvers ??= <T>() => {
  let resolve!: (value: T) => void;
  let reject!: (reason?: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};
const restate = await import('@restatedev/restate-sdk');

const require = createRequire(import.meta.url);
/** The version npm installed, which the server must report. */
const INSTALLED = (
  JSON.parse(await readFile(require.resolve('@restatedev/restate-server/package.json'), 'utf8')) as {
    version: string;
  }
).version;

const quiet = () => undefined;

/** A tiny service endpoint: what a deployment (durable server state) needs to be registered at all. */
async function startEndpoint(): Promise<{ uri: string; close(): Promise<void> }> {
  const echo = restate.service({
    name: 'echo',
    handlers: { say: async (_ctx: unknown, input: { word: string }) => ({ said: input.word }) },
  });
  const server = http2.createServer(restate.createEndpointHandler({ services: [echo], logger: quiet }));
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (s) => {
    sessions.add(s);
    s.once('close', () => sessions.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    uri: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // The server keeps its HTTP/2 connection to the endpoint open; close() waits for it otherwise.
        for (const s of sessions) s.destroy();
      }),
  };
}

async function register(c: RestateServer, uri: string): Promise<string> {
  const res = await fetch(`${c.adminUrl}/deployments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ uri }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** A call with an idempotency key: its result is kept by the server and returned again for the same key. */
async function say(c: RestateServer, word: string, key: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`${c.ingressUrl}/echo/say`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify({ word }),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, body: await res.text() };
}

async function query<T>(c: RestateServer, sql: string): Promise<T[]> {
  const res = await fetch(`${c.adminUrl}/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query: sql }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { rows: T[] }).rows;
}

const status = (url: string) =>
  fetch(url).then(
    (r) => r.status,
    (err: { cause?: { code?: string } }) => err.cause?.code ?? 'no answer',
  );

const hostPort = (url: string) => new URL(url).host;

describe('our Restate server', () => {
  it('is healthy on loopback, says what it is, and a kill or a stop restarts it on the same ports with its state', async () => {
    const logs: string[] = [];
    const server = await RESTATE_SERVER.start({ env: {}, log: (l) => logs.push(l) });
    const c = server.connection;
    const endpoint = await startEndpoint();
    let stateDir = '';
    const firstPid = server.pid()!;
    try {
      expect(server.owned).toBe(true);
      expect(server.forgetsOnRestart).toBeNull();
      expect(c.endpointHost).toBe('127.0.0.1');
      expect(c.ingressUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(c.adminUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await status(`${c.adminUrl}/health`)).toBe(200);
      expect(await status(`${c.ingressUrl}/restate/health`)).toBe(200);
      expect(server.version).toBe(INSTALLED);
      const described = new RegExp(
        `^Restate server ${INSTALLED.replaceAll('.', '\\.')} \\(restate-server from npm\\) ` +
          `ingress ${hostPort(c.ingressUrl)}, admin ${hostPort(c.adminUrl)}, 4 partitions, state in (.+)$`,
      ).exec(server.description);
      expect(described, server.description).not.toBeNull();
      stateDir = described![1]!;
      expect(existsSync(stateDir)).toBe(true);
      expect(server.uiUrl).toBe(`${c.adminUrl}/ui/`);
      expect(await status(server.uiUrl!)).toBe(200);
      expect(isProcessAlive(firstPid)).toBe(true);
      // One line said what was started; the server's offline update check (an ERROR) is silenced.
      expect(logs.filter((l) => /^restate: server \d/.test(l))).toHaveLength(1);
      expect(logs.filter((l) => /server (WARN|ERROR)/.test(l))).toEqual([]);

      const deployment = await register(c, endpoint.uri);
      expect(await say(c, 'before', 'kept')).toEqual({ status: 200, body: JSON.stringify({ said: 'before' }) });
      // From here on only the server's own state can answer for the invocation.
      await endpoint.close();

      let whileDown: unknown = null;
      const { downMs } = await server.restart!({
        whileDown: async () => {
          whileDown = await status(`${c.adminUrl}/health`);
        },
      });
      expect(whileDown).toBe('ECONNREFUSED');
      expect(downMs).toBeGreaterThan(0);
      expect(isProcessAlive(firstPid)).toBe(false);
      const secondPid = server.pid()!;
      expect(secondPid).not.toBe(firstPid);
      expect(isProcessAlive(secondPid)).toBe(true);
      // The same ports: the connection the runtime was given still reaches it.
      expect(await status(`${c.ingressUrl}/restate/health`)).toBe(200);
      const deployments = await query<{ id: string; endpoint: string }>(c, 'SELECT id, endpoint FROM sys_deployment');
      expect(deployments).toEqual([{ id: deployment, endpoint: endpoint.uri }]);
      // The same key after the crash: the stored result, though its endpoint is gone.
      expect(await say(c, 'after', 'kept')).toEqual({ status: 200, body: JSON.stringify({ said: 'before' }) });

      await server.restart!({ how: 'stop' });
      expect(isProcessAlive(secondPid)).toBe(false);
      expect(await query(c, 'SELECT id FROM sys_deployment')).toEqual([{ id: deployment }]);
      expect(await say(c, 'again', 'kept')).toEqual({ status: 200, body: JSON.stringify({ said: 'before' }) });
      expect(logs.filter((l) => /server ERROR/.test(l))).toEqual([]);
    } finally {
      await endpoint.close();
      await server.stop();
    }
    expect(isProcessAlive(server.pid()!)).toBe(false);
    // Its temporary state goes with it.
    expect(existsSync(stateDir)).toBe(false);
    await expect(server.restart!()).rejects.toThrow(/cannot restart the server on .+: it was stopped/);
  });

  it('waits for a port taken while it was down, and comes back on it', async () => {
    let taker: net.Server | undefined;
    const logs: string[] = [];
    const server = await RESTATE_SERVER.start({
      env: {},
      log: (line) => {
        logs.push(line);
        // The taker lets go once the harness says it is waiting for the port.
        if (/is held by another process; waiting/.test(line)) taker?.close();
      },
    });
    const adminPort = Number(new URL(server.connection.adminUrl).port);
    try {
      await server.restart!({
        whileDown: async () => {
          taker = net.createServer();
          await new Promise<void>((resolve) => taker!.listen(adminPort, '127.0.0.1', resolve));
        },
      });
      expect(logs.filter((l) => l.includes(`port ${adminPort} is held by another process`))).toHaveLength(1);
      // Its failed tries are said by that line, not by each ERROR the server logged for them.
      expect(logs.filter((l) => /server ERROR/.test(l))).toEqual([]);
      expect(await status(`${server.connection.adminUrl}/health`)).toBe(200);
    } finally {
      taker?.close();
      await server.stop();
    }
  });

  describe('with a data dir', () => {
    let dataDir: string;
    beforeAll(async () => {
      dataDir = await mkdtemp(path.join(os.tmpdir(), 'vendor-review-restate-test-'));
    });
    afterAll(() => rm(dataDir, { recursive: true, force: true }));

    it('keeps its state there after stop, for a later server on other ports', async () => {
      const endpoint = await startEndpoint();
      try {
        const first = await RESTATE_SERVER.start({ env: {}, log: quiet, dataDir });
        let deployment: string;
        try {
          expect(first.description).toMatch(new RegExp(`, state in ${path.join(dataDir, 'restate')}$`));
          deployment = await register(first.connection, endpoint.uri);
        } finally {
          await first.stop();
        }
        expect(existsSync(path.join(dataDir, 'restate'))).toBe(true);
        const second = await RESTATE_SERVER.start({ env: {}, log: quiet, dataDir });
        try {
          expect(second.connection.adminUrl).not.toBe(first.connection.adminUrl);
          expect(await query(second.connection, 'SELECT id FROM sys_deployment')).toEqual([{ id: deployment }]);
        } finally {
          await second.stop();
        }
      } finally {
        await endpoint.close();
      }
    });
  });
});

describe("the user's own Restate server", () => {
  it('is used as it is, never stopped by the harness; own: true starts one of ours anyway', async () => {
    const theirs = await RESTATE_SERVER.start({ env: {}, log: quiet });
    try {
      const env = {
        RESTATE_ADMIN_URL: theirs.connection.adminUrl,
        // A trailing slash, as people write URLs; the connection has none.
        RESTATE_INGRESS_URL: `${theirs.connection.ingressUrl}/`,
        RESTATE_ENDPOINT_HOST: 'host.docker.internal',
      };
      const logs: string[] = [];
      const used = await RESTATE_SERVER.start({ env, log: (l) => logs.push(l) });
      expect(used.owned).toBe(false);
      expect(used.pid()).toBeNull();
      expect(used.restart).toBeUndefined();
      expect(used.connection).toEqual({ ...theirs.connection, endpointHost: 'host.docker.internal' });
      expect(used.version).toBe(INSTALLED);
      expect(used.uiUrl).toBe(`${theirs.connection.adminUrl}/ui/`);
      expect(used.description).toBe(
        `Restate server ${INSTALLED} at RESTATE_INGRESS_URL=${theirs.connection.ingressUrl}, ` +
          `RESTATE_ADMIN_URL=${theirs.connection.adminUrl}, endpoints registered at host.docker.internal`,
      );
      expect(logs).toHaveLength(1);
      expect(RESTATE_SERVER.variables.reads('RESTATE_ENDPOINT_HOST')).toBe(true);
      await used.stop();
      await RESTATE_SERVER.check(used.connection);
      expect(isProcessAlive(theirs.pid()!)).toBe(true);

      const ours = await RESTATE_SERVER.start({ env, log: quiet, own: true });
      try {
        expect(ours.owned).toBe(true);
        expect(ours.connection.adminUrl).not.toBe(theirs.connection.adminUrl);
        expect(ours.connection.endpointHost).toBe('127.0.0.1');
      } finally {
        await ours.stop();
      }
    } finally {
      await theirs.stop();
    }
    const gone = RESTATE_SERVER.check(theirs.connection);
    await expect(gone).rejects.toThrow(InfraError);
    await expect(gone).rejects.toThrow(
      /^restate: the Restate server's admin API http:\S+ does not answer \/health \([^\n]+\)$/,
    );
  });

  it('needs both URLs: one without the other is a one-line error naming the missing one', async () => {
    const admin = RESTATE_SERVER.start({ env: { RESTATE_ADMIN_URL: 'http://127.0.0.1:19070' }, log: quiet });
    await expect(admin).rejects.toThrow(InfraError);
    await expect(admin).rejects.toThrow(/^restate: RESTATE_ADMIN_URL is set but RESTATE_INGRESS_URL is not: [^\n]+$/);
    const ingress = RESTATE_SERVER.start({ env: { RESTATE_INGRESS_URL: 'http://127.0.0.1:18080' }, log: quiet });
    await expect(ingress).rejects.toThrow(/^restate: RESTATE_INGRESS_URL is set but RESTATE_ADMIN_URL is not: [^\n]+$/);
  });

  it('that nothing answers at fails at once, in one line', async () => {
    const [a, b] = [await freePort(), await freePort()];
    const began = Date.now();
    const start = RESTATE_SERVER.start({
      env: { RESTATE_ADMIN_URL: `http://127.0.0.1:${a}`, RESTATE_INGRESS_URL: `http://127.0.0.1:${b}` },
      log: quiet,
    });
    await expect(start).rejects.toThrow(InfraError);
    await expect(start).rejects.toThrow(
      new RegExp(
        `^restate: cannot reach the Restate server at RESTATE_INGRESS_URL=http://127\\.0\\.0\\.1:${b}, [^\\n]*ECONNREFUSED[^\\n]*$`,
      ),
    );
    expect(Date.now() - began).toBeLessThan(5_000);
  });
});
