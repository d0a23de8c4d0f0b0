import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startWorld, type World } from '@vendor-review/world';
import { parseCrashLine } from '../src/plan.ts';
import { CRASH_POINT_NAMES } from '../src/points.ts';

/**
 * The instrument laid over a real process from outside: the plain runner's review (an app that
 * calls no crash point) and a bare node:http client, each killed by its plan at a call or a step,
 * judged by the world's ledger.
 */
const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function run(script: string, args: string[], env: Record<string, string>): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `${FIXTURES}${script}`, ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
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

const review = (vendor: string, world: World, worker: string, plan: string) =>
  run('plain-review.ts', [vendor], { WORLD_URL: world.url, WORKER_NAME: worker, CRASH_PLAN: plan });

const crashLine = (r: Exit) => parseCrashLine(r.stderr.split('\n').find((l) => l.startsWith('CRASHPOINT')) ?? '');

let world: World;
let slowWorld: World;
beforeAll(async () => {
  world = await startWorld({ modelLatencyMs: 20 });
  // A slow model, so that mid-model lands while the request is in flight even on a loaded machine.
  slowWorld = await startWorld({ modelLatencyMs: 1_500 });
});
afterAll(() => Promise.all([world.stop(), slowWorld.stop()]));

describe('crash points laid over a process that calls none', () => {
  it.concurrent('with no plan, the app runs to its end untouched', async ({ expect }) => {
    const r = await review('acme-analytics', world, 'calm', '');
    expect(r.code, r.stderr).toBe(0);
    expect(world.ledger().filter((e) => e.worker === 'calm' && e.kind === 'mail')).toHaveLength(1);
  });

  it.concurrent('a plan naming an unknown point: one line, exit 2, before the app starts', async ({ expect }) => {
    const r = await review('acme-analytics', world, 'typo', 'after-fetch,mid-modle');
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('unknown crash point "mid-modle"');
    for (const name of CRASH_POINT_NAMES) expect(r.stderr).toContain(name);
    expect(world.ledger().filter((e) => e.worker === 'typo')).toEqual([]);
  });

  it.concurrent('after-progress: killed right after the tracker accepted the note', async ({ expect }) => {
    const r = await review('acme-analytics', world, 'crash-ap', 'after-progress');
    expect(r.signal).toBe('SIGKILL');
    expect(crashLine(r)).toMatchObject({ point: 'after-progress', occurrence: 1, action: 'kill' });
    const entries = world.ledger().filter((e) => e.worker === 'crash-ap');
    expect(entries.filter((e) => e.kind === 'tracker').map((e) => [e.opKey, e.outcome])).toEqual([
      ['note:pricing', 'ok'],
    ]);
    expect(entries.filter((e) => e.kind === 'mail')).toEqual([]);
  });

  it.concurrent('after-model@2 counts model calls: the second requirement’s answer is in', async ({ expect }) => {
    const r = await review('borealis-crm', world, 'crash-am2', 'after-model@2');
    expect(r.signal).toBe('SIGKILL');
    expect(crashLine(r)).toMatchObject({ point: 'after-model', occurrence: 2 });
    const entries = world.ledger().filter((e) => e.worker === 'crash-am2');
    expect(entries.filter((e) => e.kind === 'model').map((e) => e.outcome)).toEqual(['ok', 'ok']);
    expect(entries.filter((e) => e.kind === 'tracker')).toHaveLength(1);
  });

  it.concurrent(
    'mid-model: killed while the model request is in flight; the world bills the prompt and records it aborted',
    async ({ expect }) => {
      const r = await review('cobalt-mail', slowWorld, 'crash-mm', 'mid-model');
      expect(r.signal).toBe('SIGKILL');
      expect(crashLine(r)).toMatchObject({ point: 'mid-model', occurrence: 1 });
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
    },
  );

  it.concurrent(
    "parallel-fetch: the last of a fan-out's page fetches dies, its siblings answered",
    async ({ expect }) => {
      const r = await review('acme-analytics', world, 'crash-pf', 'parallel-fetch');
      expect(r.signal).toBe('SIGKILL');
      expect(crashLine(r)).toMatchObject({ point: 'parallel-fetch', detail: expect.stringMatching(/sibling=2\/2$/) });
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
    },
  );

  it.concurrent('before-deliver: asked to stop before the mail leaves, it sends nothing', async ({ expect }) => {
    const r = await review('acme-analytics', world, 'crash-bd', 'before-deliver:term');
    // No SIGTERM handler here: Node dies of the signal before the mail is sent.
    expect(r.signal).toBe('SIGTERM');
    expect(crashLine(r)).toMatchObject({ point: 'before-deliver', action: 'term' });
    const entries = world.ledger().filter((e) => e.worker === 'crash-bd');
    expect(entries.filter((e) => e.kind === 'tracker').length).toBeGreaterThan(0);
    expect(entries.filter((e) => e.kind === 'mail')).toEqual([]);
  });

  it.concurrent('first-step and boundary: a step beginning, seen at the runner’s own hook', async ({ expect }) => {
    const first = await review('acme-analytics', world, 'crash-fs', 'first-step');
    expect(first.signal).toBe('SIGKILL');
    expect(crashLine(first)).toMatchObject({ point: 'first-step', detail: 'step=VALIDATE' });
    expect(world.ledger().filter((e) => e.worker === 'crash-fs')).toEqual([]);
    const boundary = await review('acme-analytics', world, 'crash-b', 'boundary');
    expect(boundary.signal).toBe('SIGKILL');
    const entries = world.ledger().filter((e) => e.worker === 'crash-b');
    expect(entries.filter((e) => e.kind === 'web').length).toBeGreaterThan(1);
    expect(entries.filter((e) => e.kind === 'model')).toEqual([]);
  });

  it.concurrent(
    'node:http is watched like fetch: after-progress lands before the app reads the answer',
    async ({ expect }) => {
      const calm = await run('node-http-note.ts', [], { WORLD_URL: world.url, CRASH_PLAN: 'after-deliver' });
      expect(calm.code, calm.stderr).toBe(0);
      expect(calm.stdout).toMatch(/^answered 201 /);
      const before = world.ledger().filter((e) => e.kind === 'tracker' && e.runId === 'node-http-run').length;
      const r = await run('node-http-note.ts', [], { WORLD_URL: world.url, CRASH_PLAN: 'after-progress' });
      expect(r.signal).toBe('SIGKILL');
      expect(crashLine(r)).toMatchObject({ point: 'after-progress', detail: 'POST /tracker/notes' });
      expect(r.stdout).toBe('');
      expect(world.ledger().filter((e) => e.kind === 'tracker' && e.runId === 'node-http-run')).toHaveLength(
        before + 1,
      );
    },
  );
});
