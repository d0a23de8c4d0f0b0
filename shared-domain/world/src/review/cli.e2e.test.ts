import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startWorld, type World } from '../index.ts';

const PKG = fileURLToPath(new URL('../..', import.meta.url));

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The review CLI as a user runs it: a real child process. */
function review(args: string[], env: Record<string, string> = {}): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/review/cli.ts', ...args], {
      cwd: PKG,
      env: { ...process.env, INIT_CWD: PKG, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

let world: World;
beforeAll(async () => {
  world = await startWorld({ modelLatencyMs: 20 });
});
afterAll(() => world.stop());

describe('pnpm review', () => {
  it.concurrent(
    'exits 2 with one line listing every problem of a malformed request file, no stack trace',
    async ({ expect }) => {
      const r = await review(['--request', 'fixtures/malformed-request.json']);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^review: invalid review request: /);
      for (const path of [
        'vendor.name',
        'vendor.baseUrl',
        'requirements[0].id',
        'requester.email',
        'options.maxPagesPerRequirement',
        'requirements[2].id',
      ])
        expect(lines[0]).toContain(`${path}:`);
    },
  );

  it.concurrent('exits 2 with a clear line for a missing file, bad JSON and an unknown vendor', async ({ expect }) => {
    const [missing, vendor] = await Promise.all([
      review(['--request', 'fixtures/none.json']),
      review(['--vendor', 'initech']),
    ]);
    expect([missing.code, missing.stderr.trim()]).toEqual([
      2,
      `review: request file not found: ${PKG}fixtures/none.json`,
    ]);
    expect([vendor.code, vendor.stderr.trim()]).toEqual([
      2,
      'review: unknown vendor "initech"; the world has: acme-analytics, borealis-crm, cobalt-mail',
    ]);
    const file = join(mkdtempSync(join(tmpdir(), 'review-')), 'bad.json');
    writeFileSync(file, '{"vendor": ');
    const bad = await review(['--request', file]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toMatch(new RegExp(`^review: request file ${file} is not valid JSON: [^\\n]+$`));
    const [help, flag] = await Promise.all([review(['--help']), review(['--vendr', 'x'])]);
    expect([help.code, help.stderr]).toEqual([0, '']);
    expect(help.stdout).toMatch(/^usage: pnpm review /);
    expect([flag.code, flag.stderr.trim()]).toEqual([2, "review: Unknown option '--vendr' (see --help)"]);
  });

  it.concurrent('prints the drafted review and its verdict table', async ({ expect }) => {
    const r = await review(['--vendor', 'borealis-crm'], { WORLD_URL: world.url, WORKER_NAME: 'cli-ok' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('# Vendor review: Borealis CRM');
    expect(r.stdout).toContain('| dpa | contradictory | 0.50 | /legal/data-processing, /faq |');
    expect(world.ledger().filter((e) => e.worker === 'cli-ok' && e.kind === 'mail')).toHaveLength(1);
  });
});
