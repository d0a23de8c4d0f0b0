import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Evidence } from '@vendor-review/conformance';
import { vendorRequest, worldClient, type LedgerEntry } from '@vendor-review/world';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LabState } from '../src/lab/state.ts';
import { repeatedSummary } from '../src/table.ts';

/**
 * The lab as a person drives it, with real servers and real worker processes: `lab up`, `lab start`,
 * a foreground `lab worker` crashed in the middle of a model call (kill -9 of the worker's pid for
 * LangGraph, Ctrl-C for Temporal), started again, `lab approve`, and `lab show` held against the
 * world's ledger read here directly: what it says repeated is what the ledger says repeated. At the
 * end `lab down` leaves no process behind. Bad use is one line and exit 2.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = path.join(ROOT, 'compare/src/lab/cli.ts');
const dir = mkdtempSync(path.join(os.tmpdir(), 'lab-e2e-'));
const env: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  LAB_DIR: dir,
  // If this test process dies, the lab's daemon stops by itself.
  LAB_OWNER_PID: String(process.pid),
  ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  ...(process.env.TEMPORAL_CLI_PATH ? { TEMPORAL_CLI_PATH: process.env.TEMPORAL_CLI_PATH } : {}),
};

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function lab(...args: string[]): Promise<Result> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Far past any step here on a loaded machine, short of the test's own timeout. */
const LINE_BOUND_MS = 120_000;

/** A `pnpm lab worker` in the foreground: its lines as they come, and a wait for the one that matters. */
class Foreground {
  readonly child: ChildProcess;
  output = '';
  readonly exited: Promise<number | null>;
  private waiters: (() => void)[] = [];

  constructor(runtime: string, ...options: string[]) {
    this.child = spawn(process.execPath, ['--import', 'tsx', CLI, 'worker', runtime, ...options], { cwd: ROOT, env });
    const take = (c: Buffer) => {
      this.output += c.toString();
      for (const w of this.waiters) w();
    };
    this.child.stdout!.on('data', take);
    this.child.stderr!.on('data', take);
    this.exited = new Promise((resolve) =>
      this.child.on('close', (code) => {
        for (const w of this.waiters) w();
        resolve(code);
      }),
    );
    foregrounds.push(this);
  }

  /**
   * The first line matching `pattern`, once it is printed; fails if the worker ends first, or says
   * what it had printed if the line has not come within the bound (so a failure names its step).
   */
  line(pattern: RegExp, what: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const bound = setTimeout(
        () => reject(new Error(`no ${what} after ${LINE_BOUND_MS} ms; the lab worker printed:\n${this.output}`)),
        LINE_BOUND_MS,
      );
      const check = () => {
        const found = this.output.split('\n').find((l) => pattern.test(l));
        if (found !== undefined) {
          clearTimeout(bound);
          return resolve(found);
        }
        if (this.child.exitCode !== null || this.child.signalCode !== null) {
          clearTimeout(bound);
          reject(new Error(`the lab worker ended before ${what}:\n${this.output}`));
        }
      };
      this.waiters.push(check);
      check();
    });
  }
}
const foregrounds: Foreground[] = [];

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const stat = execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    return stat !== '' && !stat.startsWith('Z');
  } catch {
    return false;
  }
}

/** `pid` and every process below it. */
function tree(pid: number): number[] {
  const table = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number) as [number, number]);
  const out = [pid];
  for (let i = 0; i < out.length; i++) for (const [c, p] of table) if (p === out[i] && !out.includes(c)) out.push(c);
  return out;
}

/**
 * A person kills the worker while the model is thinking; a test must know the call has reached the
 * world, not merely left the worker. A zero-delay `slow` fault changes nothing about the call (it is
 * answered, billed and recorded as usual) but is used up the moment the request arrives: its
 * disappearance from the world's fault list is that moment.
 */
async function firstExtractArrives(runId: string): Promise<() => Promise<void>> {
  const world = worldClient(state().worldUrl);
  const probe = await world.addFault({ route: 'model', kind: 'slow', delayMs: 0, times: 1, runId, step: 'EXTRACT' });
  return async () => {
    const bound = Date.now() + LINE_BOUND_MS;
    while ((await world.faults()).some((f) => f.id === probe.id)) {
      if (Date.now() > bound) throw new Error(`the first EXTRACT model call never reached the world`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
}

const state = () => JSON.parse(readFileSync(path.join(dir, 'state.json'), 'utf8')) as LabState;
const runIdOf = (r: Result) => /started run (\S+):/.exec(r.stdout)?.[1] ?? '';

function expectUsage(r: Result, message: RegExp): void {
  expect(r.code, r.stderr + r.stdout).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr.trim()).toMatch(message);
}

/** Every executed operation (injected faults are not) counted by its key, straight from the ledger. */
function counts(entries: LedgerEntry[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const e of entries) if (e.outcome !== 'fault') m.set(e.opKey, (m.get(e.opKey) ?? 0) + 1);
  return m;
}

interface ShowJson {
  status: string;
  link: string | null;
  crash: { pid: number; at: number } | null;
  workers: { name: string; pid: number; signal: string | null }[];
  baseline: { runId: string; status: string };
  evidence: Evidence;
}

/** What `lab show` says repeated, against the ledger read here. */
async function checkShowAgainstLedger(runId: string, killedPid: number): Promise<ShowJson> {
  const r = await lab('show', runId, '--json');
  expect(r.code, r.stderr).toBe(0);
  const shown = JSON.parse(r.stdout) as ShowJson;
  expect(shown.status).toBe('completed');
  expect(shown.crash?.pid).toBe(killedPid);
  expect(shown.baseline.status).toBe('completed');
  const world = worldClient(state().worldUrl);
  const ledger = (await world.ledger({ runId })).filter((e) => e.runId === runId);
  const baseline = (await world.ledger({ runId: shown.baseline.runId })).filter(
    (e) => e.runId === shown.baseline.runId,
  );
  // The approver's notification is counted apart from the repeats (it is no part of the review).
  const review = (entries: LedgerEntry[]) => entries.filter((e) => e.kind !== 'approver');
  const mine = counts(review(ledger));
  const base = counts(review(baseline));
  // Repeated: run more often than in the uncrashed run (an operation it never made under that key, once).
  const repeated = [...mine].filter(([op, n]) => n > (base.get(op) ?? 1)).map(([op]) => op);
  expect(shown.evidence.repeatedOperations.sort()).toEqual(repeated.sort());
  for (const rep of shown.evidence.repeated) expect(rep.count).toBe(mine.get(rep.opKey));
  // The model call worker A was in the middle of is among them, and it was paid for again.
  const killedCall = ledger.find((e) => e.worker === 'A' && e.kind === 'model' && e.outcome === 'aborted');
  expect(killedCall, 'worker A died with a model call in flight').toBeDefined();
  expect(shown.evidence.repeatedOperations).toContain(killedCall!.opKey);
  const modelCalls = (es: LedgerEntry[]) => es.filter((e) => e.kind === 'model' && e.outcome !== 'fault').length;
  expect(shown.evidence.extraModelCalls).toBe(modelCalls(ledger) - modelCalls(baseline));
  expect(shown.evidence.extraModelCalls).toBeGreaterThanOrEqual(1);
  expect(shown.evidence.extraCostUsd).toBeGreaterThan(0);
  // The entries marked as re-executions are later occurrences of the repeated operations.
  const bySeq = new Map(ledger.map((e) => [e.seq, e]));
  for (const seq of shown.evidence.repeatSeqs) expect(repeated).toContain(bySeq.get(seq)?.opKey);
  expect(shown.evidence.repeatSeqs.length).toBe(
    shown.evidence.repeated.reduce((n, x) => n + x.count - Math.max(x.baselineCount, 1), 0),
  );
  return shown;
}

/** The same run as a person reads it: the words of a compare cell and the marks on the timeline. */
async function checkShowText(runId: string, shown: ShowJson, durable: RegExp): Promise<void> {
  const r = await lab('show', runId);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(durable);
  expect(r.stdout).toMatch(/── worker A killed/);
  const summary = repeatedSummary(shown.evidence).replace(/[+.*?^${}()|[\]\\]/g, '\\$&');
  expect(r.stdout).toMatch(new RegExp(`^  repeated +${summary} — `, 'm'));
  expect(r.stdout).toMatch(/^ {2}extra model +\+\d+ \$/m);
  expect(r.stdout.split('\n').filter((l) => l.endsWith('↻ repeated'))).toHaveLength(shown.evidence.repeatSeqs.length);
}

beforeAll(() => {
  // Two requirements: long enough to crash in the middle, short enough for a test.
  const request = vendorRequest('acme-analytics', 'http://127.0.0.1:4100');
  writeFileSync(
    path.join(dir, 'request.json'),
    JSON.stringify({ ...request, requirements: request.requirements.slice(0, 2) }),
  );
});

afterAll(async () => {
  for (const f of foregrounds) if (f.child.exitCode === null) f.child.kill('SIGKILL');
  await lab('down');
  rmSync(dir, { recursive: true, force: true });
});

describe('pnpm lab', () => {
  it('says in one line what is wrong before the lab is up, and every command has its help', async () => {
    expectUsage(
      await lab('start', 'langgraph', '--vendor', 'acme-analytics'),
      /^lab: the lab is not up: start it with `pnpm lab up`$/,
    );
    expectUsage(await lab('show', 'rev-nope'), /the lab is not up/);
    expectUsage(await lab('worker', 'temporal'), /the lab is not up/);
    expectUsage(await lab('up', '--no-such-flag'), /Unknown option '--no-such-flag' \(see --help\)$/);
    expectUsage(await lab('start', 'langgraph', '--vendor', 'nobody'), /unknown vendor "nobody"/);
    expectUsage(await lab('start', 'cobol', '--vendor', 'acme-analytics'), /unknown runtime "cobol"/);
    expectUsage(await lab('worker', 'temporal', '--durability', 'sync'), /Temporal has no durability "sync"/);
    expectUsage(await lab('frobnicate'), /unknown command "frobnicate"/);
    expectUsage(await lab(), /name a command/);
    const commands = [[], ['up'], ['down'], ['worker'], ['start'], ['approve'], ['show'], ['runs']];
    const helps = await Promise.all(commands.map((c) => lab(...c, '--help')));
    helps.forEach((r, i) => {
      expect([r.code, r.stderr], commands[i]!.join(' ')).toEqual([0, '']);
      expect(r.stdout).toMatch(/^usage: pnpm lab /);
    });
  }, 120_000);

  it('comes up in the background, and a second lab up says it already is', async () => {
    const first = await lab('up', '--model-latency', '1000', '--page-latency', '0');
    expect(first.code, first.stderr + first.stdout).toBe(0);
    const s = state();
    expect(first.stdout).toContain(`${s.worldUrl}/__ledger`);
    const temporal = Object.values(s.servers).find((x) => x.uiUrl)!;
    expect(first.stdout).toContain(temporal.uiUrl!);
    expect(first.stdout).toMatch(/DATABASE_URL +postgres/);
    expect(alive(s.daemonPid)).toBe(true);
    // Its server's UI answers, and the server keeps its state in the lab's folder.
    expect((await fetch(temporal.uiUrl!)).ok).toBe(true);
    expect(temporal.description).toContain(`state in ${dir}`);
    const second = await lab('up');
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/already up/);
    expect(state().daemonPid).toBe(s.daemonPid);
    expectUsage(await lab('show', 'rev-nope'), /no run "rev-nope" in this lab/);
    expectUsage(await lab('approve', 'rev-nope'), /no run "rev-nope" in this lab/);
  }, 240_000);

  it('LangGraph: kill -9 the worker mid model call, start it again, approve, and show what repeated', async () => {
    const started = await lab('start', 'langgraph', '--request', path.join(dir, 'request.json'));
    expect(started.code, started.stderr).toBe(0);
    const runId = runIdOf(started);

    const arrived = await firstExtractArrives(runId);
    const a = new Foreground('langgraph');
    const sent = await a.line(/\[worker A pid \d+\] run \S+: +EXTRACT model call sent/, 'a model call');
    await arrived();
    const pid = Number(/pid (\d+)/.exec(sent)![1]);
    process.kill(pid, 'SIGKILL'); // kill -9 from another terminal
    expect(await a.exited, a.output).toBe(1);
    expect(a.output).toMatch(
      new RegExp(`worker A \\(pid ${pid}\\) was killed by SIGKILL; its last line: EXTRACT model call sent`),
    );
    expect(a.output).toMatch(/durable when it died: /);

    const b = new Foreground('langgraph');
    await b.line(new RegExp(`run ${runId} is waiting for approval`), 'the approval');
    const approved = await lab('approve', runId);
    expect(approved.code, approved.stderr).toBe(0);
    await b.line(new RegExp(`run ${runId}: worker B \\(pid \\d+\\) exited, its run completed`), 'the end of the run');
    b.child.kill('SIGINT'); // Ctrl-C with nothing running: a clean stop
    expect(await b.exited, b.output).toBe(0);

    const shown = await checkShowAgainstLedger(runId, pid);
    expect(shown.workers.map((w) => [w.name, w.signal])).toEqual([
      ['A', 'SIGKILL'],
      ['B', null],
    ]);
    await checkShowText(runId, shown, /LangGraph checkpoints in PostgreSQL[\s\S]*writer A[\s\S]*writer B/);
  }, 300_000);

  it('--crash: the worker dies by itself at the named point, laid over it from outside', async () => {
    const started = await lab('start', 'langgraph', '--request', path.join(dir, 'request.json'));
    expect(started.code, started.stderr).toBe(0);
    const runId = runIdOf(started);
    const a = new Foreground('langgraph', '--crash', 'after-progress');
    expect(await a.exited, a.output).toBe(1);
    const announced = /CRASHPOINT after-progress@1 pid=(\d+) /.exec(a.output);
    expect(announced, a.output).not.toBeNull();
    expect(a.output).toMatch(new RegExp(`worker A \\(pid ${announced![1]}\\) was killed by SIGKILL`));
    const ledger = await worldClient(state().worldUrl).ledger({ runId });
    const mine = ledger.filter((e) => e.runId === runId);
    // It died right after the tracker took the first note: one note, and no model call after it.
    expect(mine.filter((e) => e.kind === 'tracker').map((e) => e.outcome)).toEqual(['ok']);
    const note = mine.find((e) => e.kind === 'tracker')!;
    expect(mine.filter((e) => e.seq > note.seq)).toEqual([]);
  }, 300_000);

  it('Temporal: Ctrl-C the worker mid model call, start it again, approve, and show what repeated', async () => {
    const started = await lab('start', 'temporal', '--request', path.join(dir, 'request.json'));
    expect(started.code, started.stderr).toBe(0);
    const runId = runIdOf(started);
    const ui = Object.values(state().servers).find((x) => x.uiUrl)!.uiUrl;
    expect(started.stdout).toContain(`${ui}/namespaces/default/workflows/`);

    const arrived = await firstExtractArrives(runId);
    const a = new Foreground('temporal');
    const sent = await a.line(/\[worker A pid \d+\] run \S+: +EXTRACT model call sent/, 'a model call');
    await arrived();
    const pid = Number(/pid (\d+)/.exec(sent)![1]);
    a.child.kill('SIGINT'); // Ctrl-C: the lab turns it into SIGKILL for its worker processes
    expect(await a.exited, a.output).toBe(130);
    expect(a.output).toMatch(new RegExp(`Ctrl-C: killed worker A \\(pid ${pid}\\) with SIGKILL`));
    expect(alive(pid)).toBe(false);

    const b = new Foreground('temporal');
    await b.line(/\[worker B pid \d+\] run \S+: activity EXTRACT:\S+ started \(attempt 2\)/, 'the retried activity');
    await b.line(new RegExp(`run ${runId} is waiting for approval`), 'the approval');
    expect((await lab('approve', runId)).code).toBe(0);
    await b.line(new RegExp(`run ${runId}: worker B \\(pid \\d+\\) stopped, its run is over`), 'the end of the run');
    b.child.kill('SIGINT');
    expect(await b.exited, b.output).toBe(0);

    const shown = await checkShowAgainstLedger(runId, pid);
    expect(shown.link).toMatch(/\/namespaces\/default\/workflows\//);
    await checkShowText(runId, shown, /Temporal history of \d+ events[\s\S]*writer A[\s\S]*writer B/);

    const runs = await lab('runs');
    expect(runs.code).toBe(0);
    expect(runs.stdout).toMatch(new RegExp(`${runId} +Temporal +naive +completed +A✕ B`));
  }, 300_000);

  it('refuses a worker whose server is down, and lab down leaves no process behind', async () => {
    const s = state();
    const before = [...tree(s.daemonPid)];
    // The reader kills the Temporal dev server: the next Temporal worker says so and stops.
    for (const { pid } of Object.values(s.servers)) process.kill(pid!, 'SIGKILL');
    expectUsage(await lab('worker', 'temporal'), /the Temporal server of the lab \(.+\) does not answer/);
    const down = await lab('down');
    expect(down.code, down.stderr).toBe(0);
    expect(down.stdout).toMatch(/the lab is down/);
    // The embedded PostgreSQL's reaper (a shell from the infra helper) may finish a moment later.
    let left = before.filter(alive);
    for (let i = 0; i < 30 && left.length; i++) {
      await new Promise((r) => setTimeout(r, 200));
      left = left.filter(alive);
    }
    expect(left).toEqual([]);
    expectUsage(await lab('show', 'rev-nope'), /the lab is not up/);
    expect((await lab('down')).stdout).toMatch(/not up/);
  }, 120_000);
});
