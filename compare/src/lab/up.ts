import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serversOf } from '@vendor-review/conformance';
import { isProcessAlive, maskDatabaseUrl } from '@vendor-review/testbed';
import { makeDirectory } from '@vendor-review/worker-io';
import { runtimeModules } from '../runtimes.ts';
import { openRuntime } from './runtimes.ts';
import { files, liveState, readState, removeState, REPO_ROOT, type LabRuntime, type LabState } from './state.ts';
import { killAllSessions } from './worker-session.ts';

/**
 * `pnpm lab up` starts the daemon as a detached process (its own session: it outlives this
 * command and the terminal) and waits until the servers answer, then prepares each runtime (tables,
 * worker bundles) as `pnpm compare` does. `pnpm lab down` asks the daemon to stop them and
 * waits until every process of the lab is gone.
 */
const DAEMON = fileURLToPath(new URL('./daemon.ts', import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface UpOptions {
  runtimes: LabRuntime[];
  modelLatencyMs: number;
  pageLatencyMs: number;
  worldPort: number;
}

function where(dir: string, s: LabState): string[] {
  const lines = [
    `  world ledger   ${s.worldUrl}/__ledger   (model calls take ${s.modelLatencyMs} ms: time to kill a worker mid-call)`,
    `  DATABASE_URL   ${s.postgres === 'embedded' ? `${s.databaseUrl}   (embedded PostgreSQL)` : maskDatabaseUrl(s.databaseUrl)}`,
  ];
  for (const server of Object.values(s.servers)) {
    lines.push(`  ${server.title.padEnd(14)} ${server.description}`);
    if (server.uiUrl) lines.push(`  ${'its web UI'.padEnd(14)} ${server.uiUrl}`);
  }
  lines.push(`  lab state      ${dir} (daemon pid ${s.daemonPid}; its log: ${files(dir).daemonLog})`);
  return lines;
}

function lastLogLine(dir: string): string {
  const log = files(dir).daemonLog;
  if (!existsSync(log)) return 'no output';
  return readFileSync(log, 'utf8').trim().split('\n').slice(-3).join(' | ') || 'no output';
}

export async function labUp(dir: string, o: UpOptions): Promise<number> {
  const f = files(dir);
  const running = liveState(dir);
  if (running) {
    console.log('the lab is already up:');
    for (const l of where(dir, running)) console.log(l);
    return 0;
  }
  const stale = readState(dir);
  if (stale) console.log(`the previous lab (daemon pid ${stale.daemonPid}) is gone; starting a new one`);
  killAllSessions(dir);
  // A new lab starts empty: runs, baselines and Temporal's history all refer to the servers of the last one.
  for (const p of [f.state, f.upError, f.runs, f.baselines, f.data, f.workers])
    rmSync(p, { recursive: true, force: true });
  makeDirectory(f.data);
  const log = openSync(f.daemonLog, 'w');
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      DAEMON,
      '--runtime',
      o.runtimes.join(','),
      '--model-latency',
      String(o.modelLatencyMs),
      '--page-latency',
      String(o.pageLatencyMs),
      '--world-port',
      String(o.worldPort),
    ],
    { cwd: REPO_ROOT, detached: true, stdio: ['ignore', log, log], env: { ...process.env, LAB_DIR: dir } },
  );
  closeSync(log);
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));
  child.unref();
  const servers = serversOf(await runtimeModules(o.runtimes)).map((spec) => spec.title);
  process.stderr.write(
    `lab: starting the world, PostgreSQL${servers.map((t) => ` and ${t}`).join('')} (daemon pid ${child.pid})…\n`,
  );

  const deadline = Date.now() + 120_000;
  let state: LabState | null = null;
  while (!state) {
    state = readState(dir);
    if (state && state.daemonPid !== child.pid) state = null;
    if (state) break;
    if (existsSync(f.upError)) throw new Error(readFileSync(f.upError, 'utf8'));
    if (exited !== undefined)
      throw new Error(`the lab's daemon exited (${exited}) before it was ready: ${lastLogLine(dir)}`);
    if (Date.now() > deadline) {
      process.kill(child.pid!, 'SIGTERM');
      throw new Error(`the lab was not ready within 120 s: ${lastLogLine(dir)}`);
    }
    await sleep(100);
  }

  // Tables and prebuilt worker bundles, once, so that the first `lab worker` starts at once.
  process.stderr.write('lab: preparing each runtime (tables, worker bundles; the first time takes a while)…\n');
  try {
    for (const name of o.runtimes) {
      const r = await openRuntime(state, name);
      process.stderr.write(`lab: ${name}: ${r.built.join(' · ')}\n`);
      await r.adapter.close();
    }
  } catch (err) {
    await labDown(dir, { quiet: true });
    throw err;
  }
  console.log('the lab is up:');
  for (const l of where(dir, state)) console.log(l);
  const rt = o.runtimes[0]!;
  console.log(`next: pnpm lab worker ${rt}   (in another terminal: it prints every step; kill it mid-run)`);
  console.log(`      pnpm lab start ${rt} --vendor acme-analytics`);
  return 0;
}

export async function labDown(dir: string, o: { quiet?: boolean } = {}): Promise<number> {
  const say = (l: string) => (o.quiet ? undefined : console.log(l));
  const workers = killAllSessions(dir);
  const state = readState(dir);
  if (!state || !isProcessAlive(state.daemonPid)) {
    if (state) removeState(dir);
    say(workers ? 'the lab was not up; killed the worker processes it had left' : 'the lab is not up: nothing to stop');
    return 0;
  }
  const gone = async (pid: number, ms: number) => {
    for (const end = Date.now() + ms; Date.now() < end; await sleep(100)) if (!isProcessAlive(pid)) return true;
    return !isProcessAlive(pid);
  };
  // The orderly stop first; the daemon's last-resort hooks (SIGTERM) and then SIGKILL if it hangs.
  process.kill(state.daemonPid, 'SIGUSR2');
  if (!(await gone(state.daemonPid, 30_000))) {
    process.kill(state.daemonPid, 'SIGTERM');
    if (!(await gone(state.daemonPid, 5_000))) process.kill(state.daemonPid, 'SIGKILL');
  }
  for (const { pid } of Object.values(state.servers ?? {}))
    if (pid && !(await gone(pid, 10_000))) process.kill(pid, 'SIGKILL');
  removeState(dir);
  say(
    `the lab is down (daemon pid ${state.daemonPid} and its servers stopped; its files stay in ${dir} until the next lab up)`,
  );
  return 0;
}
