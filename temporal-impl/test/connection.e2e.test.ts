/**
 * A Temporal reached the way its users configure clients: TLS with a private CA and an API key from
 * TEMPORAL_* variables, or a profile of the Temporal config file. The harness's own client checks
 * the server through it, and a worker started with the environment the harness hands on connects
 * the same way (it prints WORKER READY only once it polls). The TLS server is a real TLS terminator
 * (HTTP/2 by ALPN, as gRPC needs) in front of a real dev server, with a certificate made here.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { WorkerProcess } from '@vendor-review/testbed';
import { startTemporal, type TemporalHandle } from '../harness/index.ts';
import { WORKER_ENTRY } from '../src/index.ts';
import { ready } from './support/worker-process.ts';

const bundlePath = inject('workflowBundle');
const quiet = () => undefined;
const { TEMPORAL_ADDRESS: _external, ...cliEnv } = process.env;
let devServer: TemporalHandle;
let terminator: tls.Server;
let tlsPort: number;
let secureConnections = 0;
let dir: string;
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'temporal-tls-'));
  // A private CA and a certificate for localhost signed by it (rustls, in the worker, refuses a CA as the server's own).
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=test-ca',
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.pem'),
  );
  openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=localhost',
    '-keyout',
    file('key.pem'),
    '-out',
    file('leaf.csr'),
  );
  writeFileSync(
    file('leaf.ext'),
    'subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n',
  );
  openssl(
    'x509',
    '-req',
    '-in',
    file('leaf.csr'),
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-days',
    '1',
    '-extfile',
    file('leaf.ext'),
    '-out',
    file('cert.pem'),
  );
  devServer = await startTemporal({ env: cliEnv, log: quiet });
  const [host, port] = devServer.address.split(':');
  terminator = tls.createServer(
    {
      key: readFileSync(path.join(dir, 'key.pem')),
      cert: readFileSync(path.join(dir, 'cert.pem')),
      ALPNProtocols: ['h2'],
    },
    (secure) => {
      secureConnections++;
      const plain = net.connect(Number(port), host!);
      secure.pipe(plain).pipe(secure);
      const close = () => {
        secure.destroy();
        plain.destroy();
      };
      secure.on('error', close);
      plain.on('error', close);
    },
  );
  await new Promise<void>((resolve) => terminator.listen(0, '127.0.0.1', resolve));
  tlsPort = (terminator.address() as net.AddressInfo).port;
});

afterAll(async () => {
  await Promise.all(workers.map((w) => w.kill()));
  terminator?.close();
  await devServer?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function worker(name: string, temporal: TemporalHandle): WorkerProcess {
  const w = new WorkerProcess(name, {
    entry: WORKER_ENTRY,
    env: {
      ...temporal.workerEnv,
      TASK_QUEUE: `tq-tls-${name}-${process.pid}`,
      WORLD_URL: 'http://127.0.0.1:9',
      WORKFLOW_BUNDLE: bundlePath,
    },
  });
  workers.push(w);
  return w;
}

describe('a Temporal behind TLS with an API key', () => {
  it('from TEMPORAL_* variables: the harness checks it through TLS, and a worker connects the same way', async () => {
    const before = secureConnections;
    const temporal = await startTemporal({
      env: {
        TEMPORAL_ADDRESS: `localhost:${tlsPort}`,
        TEMPORAL_TLS: 'true',
        TEMPORAL_TLS_SERVER_CA_CERT_PATH: path.join(dir, 'ca.pem'),
        TEMPORAL_API_KEY: 'test-key',
      },
      log: quiet,
    });
    expect(temporal).toMatchObject({ kind: 'external', tls: true, apiKey: true, source: 'TEMPORAL_ADDRESS' });
    expect(temporal.serverVersion).toBe(devServer.serverVersion);
    expect(secureConnections).toBeGreaterThan(before);
    expect(temporal.workerEnv).toMatchObject({
      TEMPORAL_ADDRESS: `localhost:${tlsPort}`,
      TEMPORAL_TLS: 'true',
      TEMPORAL_API_KEY: 'test-key',
    });
    const afterHarness = secureConnections;
    await ready(worker('A', temporal));
    expect(secureConnections).toBeGreaterThan(afterHarness);
  });

  it('from a profile of the config file: the worker reads the same file and profile', async () => {
    const file = path.join(dir, 'temporal.toml');
    writeFileSync(
      file,
      [
        '[profile.secure]',
        `address = "localhost:${tlsPort}"`,
        'namespace = "default"',
        'api_key = "profile-key"',
        '[profile.secure.tls]',
        `server_ca_cert_path = "${path.join(dir, 'ca.pem')}"`,
        '',
      ].join('\n'),
    );
    const temporal = await startTemporal({
      env: { TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'secure' },
      log: quiet,
    });
    expect(temporal).toMatchObject({ kind: 'external', tls: true, apiKey: true, source: `profile secure of ${file}` });
    const before = secureConnections;
    await ready(worker('B', temporal));
    expect(secureConnections).toBeGreaterThan(before);
  });

  it('plaintext to the TLS port: one line saying it is not a serving frontend and naming TEMPORAL_TLS', async () => {
    const err = await startTemporal({
      env: { TEMPORAL_ADDRESS: `localhost:${tlsPort}` },
      connectTimeoutMs: 2_000,
      log: quiet,
    }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/is not a serving Temporal frontend .*TEMPORAL_TLS=true/);
    expect((err as Error).message).not.toContain('\n');
  });
});
