import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Decision, ReviewRequestInput } from '@vendor-review/pipeline';
import type { DurableRecord, RunHandle } from '@vendor-review/conformance';
import { makeDirectory, UsageError } from '@vendor-review/worker-io';
import { type WorkerLife } from '@vendor-review/testbed';
import { files, readJson, writeJson, type LabRuntime } from './state.ts';

/**
 * The runs started in this lab, one folder each under `.lab/runs/`: what `pnpm compare` keeps in
 * memory for a cell (the adapter's handle, the worker processes' lives, the durable record read
 * while no worker was alive, the approvals) kept on disk, because here every step is a different
 * command. Each file has one writer: `lab start` the run, the lab worker the lives and the record
 * at the crash, `lab approve` the approvals (appended).
 */
export interface LabRun {
  runtime: LabRuntime;
  /** What the adapter returned from startRun: all a later command needs to reach the run again. */
  handle: RunHandle;
  request: ReviewRequestInput;
  /** "acme-analytics", or the request file's path. */
  source: string;
  createdAt: number;
}

export interface LabApproval {
  at: number;
  /** The worker that was running the run when the decision was sent, or null: none was alive. */
  aliveWorker: string | null;
  decision: Decision;
}

const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function runDir(dir: string, runId: string): string {
  return path.join(files(dir).runs, runId);
}

export function saveRun(dir: string, run: LabRun): void {
  writeJson(path.join(runDir(dir, run.handle.runId), 'run.json'), run);
}

/** An id this lab never started is the person's mistake: one line, exit 2. */
export function loadRun(dir: string, runId: string | undefined): LabRun {
  if (!runId) throw new UsageError('name a run (pnpm lab runs lists them)');
  const run = SAFE_ID.test(runId) ? readJson<LabRun>(path.join(runDir(dir, runId), 'run.json')) : null;
  if (!run) throw new UsageError(`no run "${runId}" in this lab (pnpm lab runs lists them)`, { seeHelp: false });
  return run;
}

export function listRuns(dir: string): LabRun[] {
  const root = files(dir).runs;
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .map((id) => readJson<LabRun>(path.join(root, id, 'run.json')))
    .filter((r): r is LabRun => r !== null)
    .sort((a, b) => a.createdAt - b.createdAt);
}

/** Every worker process the lab started for this run, in order: A, then B, … */
export function readLives(dir: string, runId: string): WorkerLife[] {
  return readJson<WorkerLife[]>(path.join(runDir(dir, runId), 'lives.json')) ?? [];
}

export function writeLives(dir: string, runId: string, lives: WorkerLife[]): void {
  writeJson(path.join(runDir(dir, runId), 'lives.json'), lives);
}

/** The durable record as it was right after the first crash, before any worker resumed. */
export function readAtCrash(dir: string, runId: string): DurableRecord | null {
  return readJson<DurableRecord>(path.join(runDir(dir, runId), 'durable-at-crash.json'));
}

export function saveAtCrash(dir: string, runId: string, record: DurableRecord): void {
  const file = path.join(runDir(dir, runId), 'durable-at-crash.json');
  if (!existsSync(file)) writeJson(file, record);
}

export function appendApproval(dir: string, runId: string, a: LabApproval): void {
  makeDirectory(runDir(dir, runId));
  appendFileSync(path.join(runDir(dir, runId), 'approvals.jsonl'), `${JSON.stringify(a)}\n`);
}

export function readApprovals(dir: string, runId: string): LabApproval[] {
  const file = path.join(runDir(dir, runId), 'approvals.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LabApproval);
}
