import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTemporal, type TemporalHandle } from '../harness/index.ts';

const PACKAGE = fileURLToPath(new URL('../', import.meta.url));
let temporal: TemporalHandle;

beforeAll(async () => {
  const { TEMPORAL_ADDRESS: _ignored, ...env } = process.env;
  temporal = await startTemporal({ env, log: () => {} });
});
afterAll(() => temporal?.stop());

/**
 * A worker's stdout is its own, and a benchmark's is its JSON: core (the SDK's native part) logs
 * straight to stdout unless told to forward to the logger, which writes to stderr.
 */
it("sends core's log lines through the logger to stderr, never to stdout", async () => {
  // Core says when a worker starts and when it shuts down, at INFO.
  const script = `
    import { NativeConnection, Worker } from '@temporalio/worker';
    import { installRuntime } from './src/runtime.ts';
    installRuntime('INFO');
    const connection = await NativeConnection.connect({ address: '${temporal.address}' });
    const worker = await Worker.create({ connection, namespace: '${temporal.namespace}', taskQueue: 'logs', activities: { noop: async () => {} } });
    const running = worker.run();
    worker.shutdown();
    await running;
    await connection.close();
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: PACKAGE,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise((resolve) => child.on('close', resolve));
  expect(code, stderr).toBe(0);
  expect(stdout).toBe('');
  expect(stderr).toMatch(/\[INFO\] Initializing worker/);
});
