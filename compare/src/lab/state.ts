import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isProcessAlive } from '@vendor-review/testbed';
import { makeDirectory, UsageError, writeFileAtomic } from '@vendor-review/worker-io';
import { runtimesIn } from '../suite-runtimes.ts';

/**
 * Where the lab keeps what outlives one command: `.lab/` at the repo root (LAB_DIR elsewhere, so a
 * test never touches a person's lab). The daemon writes `state.json` once everything answers;
 * every other command reads it to find the servers, and trusts it only while the daemon lives.
 */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export function labDir(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.LAB_DIR?.trim();
  return configured ? path.resolve(configured) : path.join(REPO_ROOT, '.lab');
}

/**
 * The runtimes the lab serves, in the registry's order: those of the production suite, as chaos
 * (a runtime without durability has no durable record to show at a crash). Read from each
 * runtime's info, which loads none of its libraries.
 */
export const LAB_RUNTIMES: readonly string[] = await runtimesIn('production');
/** The name of a runtime the lab serves (one of LAB_RUNTIMES). */
export type LabRuntime = string;

export interface LabState {
  daemonPid: number;
  startedAt: number;
  /** The runtimes this lab serves; the servers they declare were started for them. */
  runtimes: LabRuntime[];
  worldUrl: string;
  databaseUrl: string;
  postgres: 'embedded' | 'external';
  /** Each runtime server the lab started, by id, as its spec started it. */
  servers: Record<string, LabServer>;
  modelLatencyMs: number;
  pageLatencyMs: number;
}

export interface LabServer {
  title: string;
  /** What its runtime is given to reach it (the spec's connection), kept for the later commands. */
  connection: unknown;
  description: string;
  uiUrl: string | null;
  /** Its process, null when it runs elsewhere. */
  pid: number | null;
}

export const files = (dir: string) => ({
  state: path.join(dir, 'state.json'),
  /** The daemon's one-line reason when it could not start, for `lab up` to repeat. */
  upError: path.join(dir, 'up-error.txt'),
  daemonLog: path.join(dir, 'daemon.log'),
  data: path.join(dir, 'data'),
  runs: path.join(dir, 'runs'),
  baselines: path.join(dir, 'baselines'),
  workers: path.join(dir, 'workers'),
});

/** Written whole or not at all: a reader never sees half a file. */
export function writeJson(file: string, value: unknown): void {
  makeDirectory(path.dirname(file));
  writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
}

export function readJson<T>(file: string): T | null {
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

export function readState(dir: string = labDir()): LabState | null {
  return readJson<LabState>(files(dir).state);
}

/** The state of a lab whose daemon still lives; a state left by a dead one is stale. */
export function liveState(dir: string = labDir()): LabState | null {
  const state = readState(dir);
  return state && isProcessAlive(state.daemonPid) ? state : null;
}

/** For every command that needs the servers: one line and exit 2 when the lab is not up. */
export function requireUp(dir: string = labDir()): LabState {
  const state = liveState(dir);
  if (!state) throw new UsageError('the lab is not up: start it with `pnpm lab up`', { seeHelp: false });
  return state;
}

export function removeState(dir: string): void {
  rmSync(files(dir).state, { force: true });
}
