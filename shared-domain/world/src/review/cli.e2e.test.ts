import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { CRASH_POINT_NAMES } from '@vendor-review/pipeline';
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
      env: { ...process.env, INIT_CWD: PKG, CRASH_PLAN: '', ...env },
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
let slowWorld: World;
beforeAll(async () => {
  world = await startWorld({ modelLatencyMs: 20 });
  // A slow model, so that mid-model lands while the request is in flight even on a loaded machine.
  slowWorld = await startWorld({ modelLatencyMs: 1_500 });
});
afterAll(() => Promise.all([world.stop(), slowWorld.stop()]));

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

  it.concurrent('exits 2 on an unknown crash point, naming the known ones', async ({ expect }) => {
    const r = await review(['--vendor', 'acme-analytics'], {
      CRASH_PLAN: 'after-fetch,mid-modle',
      WORLD_URL: world.url,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown crash point "mid-modle"');
    for (const name of CRASH_POINT_NAMES) expect(r.stderr).toContain(name);
  });

  it.concurrent('prints the drafted review and its verdict table', async ({ expect }) => {
    const r = await review(['--vendor', 'borealis-crm'], { WORLD_URL: world.url, WORKER_NAME: 'cli-ok' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('# Vendor review: Borealis CRM');
    expect(r.stdout).toContain('| dpa | contradictory | 0.50 | /legal/data-processing, /faq |');
    expect(world.ledger().filter((e) => e.worker === 'cli-ok' && e.kind === 'mail')).toHaveLength(1);
  });
});

describe('crash points in a real process', () => {
  it.concurrent(
    'after-progress: the process SIGKILLs itself right after the tracker accepted the note',
    async ({ expect }) => {
      const r = await review(['--vendor', 'acme-analytics'], {
        WORLD_URL: world.url,
        WORKER_NAME: 'crash-ap',
        CRASH_PLAN: 'after-progress',
      });
      expect(r.signal).toBe('SIGKILL');
      expect(r.stderr).toMatch(/^CRASHPOINT after-progress@1 pid=\d+ at=\d+ action=kill requirement=pricing$/m);
      const entries = world.ledger().filter((e) => e.worker === 'crash-ap');
      expect(entries.filter((e) => e.kind === 'tracker').map((e) => [e.opKey, e.outcome])).toEqual([
        ['note:pricing', 'ok'],
      ]);
      expect(entries.filter((e) => e.kind === 'mail')).toEqual([]);
    },
  );

  it.concurrent(
    'mid-model: killed while the model request is in flight; the world bills the prompt and records it aborted',
    async ({ expect }) => {
      const r = await review(['--vendor', 'cobalt-mail'], {
        WORLD_URL: slowWorld.url,
        WORKER_NAME: 'crash-mm',
        CRASH_PLAN: 'mid-model',
      });
      expect(r.signal).toBe('SIGKILL');
      expect(r.stderr).toMatch(/^CRASHPOINT mid-model@1 /m);
      await expect
        .poll(() =>
          slowWorld
            .ledger()
            .filter((e) => e.worker === 'crash-mm' && e.kind === 'model')
            .map((e) => e.outcome),
        )
        .toEqual(['aborted']);
      const [call] = slowWorld.ledger().filter((e) => e.worker === 'crash-mm' && e.kind === 'model');
      expect(call).toMatchObject({ step: 'EXTRACT', status: 0, completionTokens: 0 });
      expect(call!.promptTokens).toBeGreaterThan(0);
      expect(call!.costUsd).toBeGreaterThan(0);
    },
  );

  it.concurrent('parallel-fetch: the last sibling dies after every sibling page was served', async ({ expect }) => {
    const r = await review(['--vendor', 'acme-analytics'], {
      WORLD_URL: world.url,
      WORKER_NAME: 'crash-pf',
      CRASH_PLAN: 'parallel-fetch',
    });
    expect(r.signal).toBe('SIGKILL');
    expect(r.stderr).toMatch(/^CRASHPOINT parallel-fetch@1 .* sibling=2\/2$/m);
    const web = world.ledger().filter((e) => e.worker === 'crash-pf' && e.kind === 'web');
    expect(web.map((e) => e.path)).toEqual([
      '/vendors/acme-analytics/sitemap.json',
      expect.any(String),
      expect.any(String),
    ]);
    expect(new Set(web.slice(1).map((e) => e.path))).toEqual(
      new Set(['/vendors/acme-analytics/pricing', '/vendors/acme-analytics/']),
    );
    expect(world.ledger().filter((e) => e.worker === 'crash-pf' && e.kind === 'model')).toEqual([]);
  });
});
