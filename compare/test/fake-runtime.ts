/**
 * A runtime that brings a server of its own, written as a new runtime's package would write it:
 * its info, its server's spec and its module. Nothing here is known to the tools: the test that
 * registers it shows they bring its server up, restart it and tear it down from what it declares.
 * Its server is a real TCP server in this process; what is done to it is written in `events`.
 */
import { existsSync } from 'node:fs';
import net from 'node:net';
import type { RuntimeModule, ServerSpec, RuntimeInfo } from '@vendor-review/conformance';

export const events: string[] = [];

export interface AcmeConnection {
  address: string;
}

async function listen(port = 0): Promise<net.Server> {
  const server = net.createServer((s) => s.end('acme\n'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return server;
}
const close = (s: net.Server) => new Promise<void>((resolve) => s.close(() => resolve()));

export const ACME_SERVER: ServerSpec<AcmeConnection> = {
  id: 'acme-server',
  title: 'the Acme server',
  label: 'Acme server',
  variables: { reads: (name) => name.startsWith('ACME_'), secret: (name) => name === 'ACME_TOKEN' },
  async start(o) {
    // As a real server would: its data directory must be there.
    if (o.dataDir && !existsSync(o.dataDir)) throw new Error(`no such directory: ${o.dataDir}`);
    let server = await listen();
    const { port } = server.address() as net.AddressInfo;
    const where = `127.0.0.1:${port}`;
    events.push(`start ${where}${o.dataDir ? ' on disk' : ' in memory'}${o.own ? ' own' : ''}${o.ui ? ' ui' : ''}`);
    return {
      connection: { address: where },
      description: `Acme at ${where}, state ${o.dataDir ? `in ${o.dataDir}` : 'in memory'}`,
      version: '9.9.9',
      uiUrl: o.ui ? `http://${where}/ui` : null,
      owned: true,
      forgetsOnRestart: o.dataDir ? null : 'the Acme server keeps its state in memory',
      pid: () => null,
      async restart(r = {}) {
        const began = Date.now();
        await close(server);
        await r.whileDown?.();
        server = await listen(port);
        events.push(`restart ${where}`);
        return { downMs: Date.now() - began };
      },
      async stop() {
        await close(server);
        events.push(`stop ${where}`);
      },
    };
  },
  async check(c) {
    events.push(`check ${c.address}`);
    const [host, port] = c.address.split(':');
    await new Promise<void>((resolve, reject) => {
      const s = net.connect({ host: host!, port: Number(port) }, () => {
        s.end();
        resolve();
      });
      s.once('error', reject);
    });
  },
};

export const ACME: RuntimeInfo = {
  name: 'acme',
  label: 'AC',
  title: 'Acme',
  colour: '#999999',
  configurations: [
    { variant: 'naive', durability: null },
    { variant: 'hardened', durability: null },
  ],
};

/** Its module: given the Acme server's connection, an adapter that runs nothing (no run is started here). */
export const runtime: RuntimeModule = {
  info: ACME,
  servers: [ACME_SERVER],
  versions: () => ({ acme: '1.0.0' }),
  bench: async () => ({ unit: 'commit' }),
  async start(env) {
    const { address } = env.servers[ACME_SERVER.id] as AcmeConnection;
    events.push(`runtime on ${address} with ${env.databaseUrl.startsWith('postgres') ? 'a database' : 'none'}`);
    const never = () => {
      throw new Error('the fake runtime runs nothing');
    };
    return {
      info: ACME,
      adapter: {
        ...ACME,
        workerExitsWhenDone: true,
        isRetryableExit: () => false,
        startRun: never,
        workerSpec: never,
        status: never,
        inspect: never,
        approve: never,
        durableRecord: never,
        close: async () => void events.push(`runtime closed on ${address}`),
        drills: { servers: () => ['postgres', ACME_SERVER.id], explain: async () => null },
      },
      built: [],
      workers: { kind: 'per-run' },
      records: { outbox: async () => new Map() },
    };
  },
};
