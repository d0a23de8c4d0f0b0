import { afterEach, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { armCrashPlan, isArmed, reach } from './act.ts';
import { CrashPlanError, parseCrashLine, parseCrashPlan } from './plan.ts';
import { CRASH_POINT_NAMES } from './points.ts';

describe('crash plans', () => {
  afterEach(() => armCrashPlan([]));

  it('parses names with optional occurrences, and nothing as no plan', () => {
    expect(parseCrashPlan(undefined)).toEqual([]);
    expect(parseCrashPlan('  ')).toEqual([]);
    expect(parseCrashPlan('after-fetch, mid-model@3, boundary:stop, after-model@2:kill')).toEqual([
      { point: 'after-fetch', occurrence: 1, action: 'kill' },
      { point: 'mid-model', occurrence: 3, action: 'kill' },
      { point: 'boundary', occurrence: 1, action: 'stop' },
      { point: 'after-model', occurrence: 2, action: 'kill' },
    ]);
    expect(() => parseCrashPlan('boundary:pause')).toThrow(CrashPlanError);
    expect(parseCrashPlan('after-model:term, mid-model@2:term')).toEqual([
      { point: 'after-model', occurrence: 1, action: 'term' },
      { point: 'mid-model', occurrence: 2, action: 'term' },
    ]);
    expect(parseCrashPlan('after-model+20, after-progress@2+0.5:kill')).toEqual([
      { point: 'after-model', occurrence: 1, action: 'kill', delayMs: 20 },
      { point: 'after-progress', occurrence: 2, action: 'kill', delayMs: 0.5 },
    ]);
    expect(() => parseCrashPlan('after-model+20:stop')).toThrow(/for a kill only/);
    expect(parseCrashLine('CRASHPOINT boundary@1 pid=1 at=2 action=term')).toMatchObject({ action: 'term' });
    expect(parseCrashLine('CRASHPOINT boundary@1 pid=1 at=2 action=pause')).toBeNull();
  });

  it('refuses an unknown point with an error that names every known one', () => {
    const err = (() => {
      try {
        parseCrashPlan('after-fetch,after-modle');
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(CrashPlanError);
    expect((err as Error).message).toContain('unknown crash point "after-modle"');
    for (const name of CRASH_POINT_NAMES) expect((err as Error).message).toContain(name);
    expect(() => parseCrashPlan('boundary@0')).toThrow(CrashPlanError);
  });

  it('arms only the named points, and an unarmed point returns without harm', async () => {
    armCrashPlan('after-deliver@2');
    expect(isArmed('after-deliver')).toBe(true);
    expect(isArmed('boundary')).toBe(false);
    await expect(reach('boundary')).resolves.toBeUndefined();
    // First occurrence of an @2 plan: not yet.
    await expect(reach('after-deliver')).resolves.toBeUndefined();
  });

  it('reads back the line a crash point writes, and nothing else', () => {
    const line = 'CRASHPOINT parallel-fetch@2 pid=4242 at=1700000000000 action=kill sibling=3/3';
    expect(parseCrashLine(line)).toEqual({
      point: 'parallel-fetch',
      occurrence: 2,
      pid: 4242,
      at: 1700000000000,
      action: 'kill',
      detail: 'sibling=3/3',
    });
    expect(parseCrashLine('CRASHPOINT boundary@1 pid=1 at=2 action=stop')).toMatchObject({
      action: 'stop',
      detail: '',
    });
    expect(
      parseCrashLine('CRASHPOINT start-call@1 pid=1 at=2 action=kill delay=5.250 cpu=0.375/8 run=rev-1'),
    ).toMatchObject({ delayMs: 5.25, cpu: { share: 0.375, ticks: 8 }, detail: 'run=rev-1' });
    expect(parseCrashLine('CRASHPOINT after-model@1 pid=1 at=2 action=kill delay=1.000 cpu=-/0')).toMatchObject({
      cpu: { share: null, ticks: 0 },
      detail: '',
    });
    expect(parseCrashLine('CRASHPOINT nowhere@1 pid=1 at=2 action=kill')).toBeNull();
    expect(parseCrashLine('[worker A] CRASHPOINT boundary@1 pid=1 at=2 action=kill')).toBeNull();
  });

  /** A child process running `lines` (reach imported) under the crash plan `plan`. */
  function underPlan(plan: string, lines: string[], env: NodeJS.ProcessEnv = {}) {
    const script = [
      "import { installCrashPoints, reach } from './src/index.ts';",
      'installCrashPoints();',
      ...lines,
    ].join('\n');
    return spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: new URL('..', import.meta.url),
      env: { ...process.env, CRASH_PLAN: plan, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }

  /** A child's output as it comes, and the moment its stderr first holds a line that `said` accepts. */
  function watched(child: ReturnType<typeof underPlan>, said: (line: string) => boolean) {
    const seen = { out: '', err: '' };
    child.stdout.on('data', (d: Buffer) => (seen.out += d.toString()));
    const saw = new Promise<void>((resolve) =>
      child.stderr.on('data', (d: Buffer) => {
        seen.err += d.toString();
        if (seen.err.split('\n').some(said)) resolve();
      }),
    );
    return { seen, saw };
  }

  it('a process freezes itself at a stop point and carries on after SIGCONT', async () => {
    const child = underPlan('boundary:stop', ["await reach('boundary');", "process.stdout.write('went on\\n');"]);
    const { seen, saw } = watched(child, (l) => l.startsWith('CRASHPOINT'));
    await saw;
    const line = parseCrashLine(seen.err.split('\n')[0]!);
    expect(line).toMatchObject({ point: 'boundary', action: 'stop', pid: child.pid });
    // The announcement comes right before the stop: wait until the kernel says the process is stopped.
    const state = () => spawnSync('ps', ['-o', 'stat=', '-p', String(child.pid)], { encoding: 'utf8' }).stdout.trim();
    while (!state().startsWith('T')) await new Promise((r) => setTimeout(r, 20));
    expect(seen.out).toBe('');
    child.kill('SIGCONT');
    const code = await new Promise((resolve) => child.once('close', resolve));
    expect(code).toBe(0);
    expect(seen.out).toBe('went on\n');
  });

  it('a delayed kill lets the step go on, then dies, and says how late it really was', async () => {
    const child = underPlan('after-model+30', [
      "await reach('after-model');",
      "process.stdout.write('step returned\\n');",
      'await new Promise((r) => setTimeout(r, 60_000));',
      "process.stdout.write('outlived its kill\\n');",
    ]);
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const signal = await new Promise((resolve) => child.once('close', (_c, s) => resolve(s)));
    expect(signal).toBe('SIGKILL');
    expect(out).toBe('step returned\n');
    const line = parseCrashLine(err.split('\n').find((l) => l.startsWith('CRASHPOINT'))!);
    expect(line).toMatchObject({ point: 'after-model', action: 'kill', pid: child.pid });
    expect(line!.delayMs).toBeGreaterThanOrEqual(30);
    // How busy the machine was over the delay, from /proc/stat where there is one.
    if (existsSync('/proc/stat')) expect(line!.cpu?.ticks).toBeGreaterThanOrEqual(0);
    else expect(line!.cpu).toBeUndefined();
  });

  /** A child process reaching `boundary` with `plan`, its SIGTERM handling given as code. */
  async function atTermPoint(onTerm: string): Promise<{ code: number | null; signal: string | null; out: string }> {
    const child = underPlan('boundary:term', [
      onTerm,
      "await reach('boundary');",
      "process.stdout.write('step went on\\n');",
      'await new Promise((r) => setTimeout(r, 200));',
      "process.stdout.write('step done\\n');",
    ]);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const [code, signal] = await new Promise<[number | null, string | null]>((resolve) =>
      child.once('close', (c, s) => resolve([c, s])),
    );
    return { code, signal, out };
  }

  it('a term point sends SIGTERM to its own process and the step goes on beside its handler', async () => {
    const r = await atTermPoint("process.once('SIGTERM', () => process.stdout.write('asked to stop\\n'));");
    expect(r.code).toBe(0);
    expect(parseCrashLine(r.out.split('\n').find((l) => l.startsWith('CRASHPOINT'))!)).toMatchObject({
      point: 'boundary',
      action: 'term',
    });
    expect(r.out).toContain('step went on');
    expect(r.out).toContain('asked to stop');
    expect(r.out).toContain('step done');
  });

  it('a term point in a process with no SIGTERM handler dies of the signal, as Node does by default', async () => {
    const r = await atTermPoint('');
    expect(r.signal).toBe('SIGTERM');
    expect(r.out).not.toContain('step done');
  });
});
