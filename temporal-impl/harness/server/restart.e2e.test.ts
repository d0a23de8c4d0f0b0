/**
 * A CLI dev server restarted for real (the restart and memory hazards and a chaos campaign use
 * this): on its --db-filename a workflow started before the restart is still there afterwards, on
 * the same address; in memory it is gone. A server the harness does not own has no restart.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliOrFail, temporalCli } from './cli-for-tests.ts';
import { startTemporal, type TemporalHandle } from './index.ts';
import { tcpConnect } from '@vendor-review/worker-io';
import { isProcessAlive } from '@vendor-review/testbed';

const quiet = () => undefined;

/** A workflow nobody will run: it exists only as server state, which is what a restart keeps or loses. */
const startWorkflow = (server: TemporalHandle, id: string) =>
  temporalCli(
    'workflow',
    'start',
    '--type',
    'neverRun',
    '--task-queue',
    'nobody-polls',
    '--workflow-id',
    id,
    '--address',
    server.address,
  );

const describeWorkflow = (server: TemporalHandle, id: string) =>
  temporalCli('workflow', 'describe', '--workflow-id', id, '--address', server.address, '--output', 'json').then(
    (out) => JSON.parse(out) as { workflowExecutionInfo: { execution: { workflowId: string } } },
  );

describe('Temporal dev server restarted', () => {
  const env = { TEMPORAL_CLI_PATH: cliOrFail() };
  let workDir: string;
  beforeAll(async () => {
    workDir = await mkdtemp(path.join(os.tmpdir(), 'vendor-review-temporal-restart-'));
  });
  afterAll(() => rm(workDir, { recursive: true, force: true }));

  it('on its --db-filename: same address, a new process, and the workflow it held is still there', async () => {
    const dbFilename = path.join(workDir, 'temporal.db');
    const server = await startTemporal({ env, dbFilename, log: quiet });
    try {
      expect(server.dbFilename).toBe(dbFilename);
      await startWorkflow(server, 'kept-across-restart');
      const before = server.pid!;
      let refusedWhileDown: unknown = null;
      const { downMs } = await server.restart!({
        whileDown: async () => {
          const [host, port] = server.address.split(':');
          refusedWhileDown = await tcpConnect(host!, Number(port), 1_000).catch((err: unknown) => err);
        },
      });
      expect((refusedWhileDown as { code?: string })?.code).toBe('ECONNREFUSED');
      expect(downMs).toBeGreaterThan(0);
      expect(isProcessAlive(before)).toBe(false);
      expect(server.pid).not.toBe(before);
      expect(isProcessAlive(server.pid!)).toBe(true);
      const described = await describeWorkflow(server, 'kept-across-restart');
      expect(described.workflowExecutionInfo.execution.workflowId).toBe('kept-across-restart');
    } finally {
      await server.stop();
    }
    expect(isProcessAlive(server.pid!)).toBe(false);
    await expect(server.restart!()).rejects.toThrow(/cannot restart the dev server on .+: it was stopped/);
  });

  it('in memory (no file): the restarted server on the same address has lost the workflow', async () => {
    const server = await startTemporal({ env, log: quiet });
    try {
      expect(server.dbFilename).toBeUndefined();
      await startWorkflow(server, 'lost-with-memory');
      await server.restart!({ how: 'stop' });
      await expect(describeWorkflow(server, 'lost-with-memory')).rejects.toThrow(/not found/i);
    } finally {
      await server.stop();
    }
  });

  it('a server it does not own (TEMPORAL_ADDRESS) has no restart', async () => {
    const own = await startTemporal({ env, log: quiet });
    try {
      const external = await startTemporal({ env: { TEMPORAL_ADDRESS: own.address }, log: quiet });
      expect(external.kind).toBe('external');
      expect(external.restart).toBeUndefined();
    } finally {
      await own.stop();
    }
  });
});
