import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sleep } from '@vendor-review/worker-io';
import { isProcessAlive } from './process-cleanup.ts';

const fixture = fileURLToPath(new URL('./test-fixtures/start-and-hang.ts', import.meta.url));

interface Started {
  dataDir: string;
  postgresPid: number;
}

async function startHolder() {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const started = await new Promise<Started>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!) as Started);
    });
    child.once('exit', (code) => reject(new Error(`fixture exited with ${code} before starting: ${err}`)));
  });
  return { child, started };
}

async function nothingLeft(started: Started, withinMs: number) {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (!isProcessAlive(started.postgresPid) && !existsSync(started.dataDir)) return;
    await sleep(200);
  }
  return {
    postgres: isProcessAlive(started.postgresPid),
    dataDir: existsSync(started.dataDir),
  };
}

// Concurrent: each test waits on its own child process, mostly idle.
describe.concurrent('servers started by a process that dies', () => {
  it('are gone after it is SIGKILLed (no hook runs; the watchers do it)', async () => {
    const { child, started } = await startHolder();
    expect(isProcessAlive(started.postgresPid)).toBe(true);
    child.kill('SIGKILL');
    expect(await nothingLeft(started, 10_000)).toBeUndefined();
  });

  it('are gone after a SIGTERM (the signal hook does it)', async () => {
    const { child, started } = await startHolder();
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_code, signal) => resolve(signal)),
    );
    child.kill('SIGTERM');
    expect(await exited).toBe('SIGTERM'); // the default disposition is restored after cleanup
    expect(await nothingLeft(started, 5_000)).toBeUndefined();
  });
});
