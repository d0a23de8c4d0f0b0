import { errorObservation, type CellObservation, crashCatalogue } from '@vendor-review/conformance';
import { FAKE_RUNTIMES } from '@vendor-review/conformance/fixtures';
import { workerLife } from '@vendor-review/testbed';
import type { LedgerEntry } from '@vendor-review/world';
import { describe, expect, it } from 'vitest';
import { toText } from './report/render-text.ts';
import { exitedChildrenCpuMs, otherProcessesCpu, processCpu, profileDocument, recoverySlices } from './profile.ts';

const scenario = crashCatalogue(Object.values(FAKE_RUNTIMES)).find((s) => s.crashPoint === 'after-model')!;

function call(at: number, worker: string): LedgerEntry {
  return {
    seq: at,
    at,
    runId: 'r',
    step: 'EXTRACT',
    attempt: 1,
    worker,
    idempotencyKey: null,
    kind: 'model',
    method: 'POST',
    path: '/v1/chat/completions',
    opKey: `model:EXTRACT:${at}`,
    subject: 'extract',
    status: 200,
    outcome: 'ok',
    promptTokens: 1,
    completionTokens: 1,
    costUsd: 0,
    durationMs: 10,
  };
}

/** A crash at t=1000; B spawned at 1300 and refused (lease held), B again at 3200, loaded at 3700; its first call at 4000. */
function crashed(): CellObservation {
  return {
    ...errorObservation(scenario, 0, ''),
    status: 'completed',
    note: null,
    startedAt: 0,
    endedAt: 5000,
    crash: { point: 'after-model', occurrence: 1, at: 1000, action: 'kill' } as CellObservation['crash'],
    workers: [
      workerLife({ name: 'A', startedAt: 0, loadedAt: 300, exitedAt: 1000, cpuMs: 400, loadedCpuMs: 200 }),
      workerLife({ name: 'B', startedAt: 1300, loadedAt: 1800, exitedAt: 1900, cpuMs: 300, loadedCpuMs: 250 }),
      workerLife({ name: 'B', startedAt: 3200, loadedAt: 3700, exitedAt: 5000, cpuMs: 500, loadedCpuMs: 250 }),
    ],
    ledger: [call(500, 'A'), call(4000, 'B')],
    harness: { polls: 10, pollMs: 50, readMs: 20 },
  };
}

describe('where the time went', () => {
  it('splits the crash → the first resumed call into the harness, the resumers’ starts and the runtime’s wait', () => {
    // 3000 ms in all: 300 until B was spawned, 500 + 500 of starts, the rest (the lease, the pause) the runtime's.
    expect(recoverySlices(crashed())).toEqual({ harness: 300, starts: 1000, runtime: 1700 });
  });

  it('has nothing to split for a cell that never resumed', () => {
    expect(recoverySlices({ ...crashed(), ledger: [call(500, 'A')], workers: crashed().workers.slice(0, 1) })).toBe(
      null,
    );
  });

  it('prints per-runtime figures taken from the lives and the ledger', () => {
    const obs = crashed();
    const text = toText(
      profileDocument({
        wallMs: 5000,
        harnessCpuMs: 100,
        exitedChildrenCpuMs: 1300,
        machine: { busyMs: 3000, idleMs: 1000 },
        others: [
          { name: 'postgres', cpuMs: 1500 },
          { name: 'sshd', cpuMs: 20 },
        ],
        cells: [obs],
        hazards: [],
        workers: obs.workers.map((life) => ({ entry: '/x/.cache/worker-bundle-0a1b.cjs', life })),
        labelOf: (r) => r.toUpperCase(),
        serverStarts: [{ label: 'Acme server', ms: 900 }],
      }),
    );
    expect(text).toMatch(/workers 1\.20 s \(3 processes;/);
    expect(text).toMatch(/servers' starts: Acme server 900 ms/);
    expect(text).toMatch(/75 % of all cores/);
    // The servers by name; what spent under a second is not worth a word.
    expect(text).toMatch(/every child process that exited, by the kernel's count: 1\.30 s/);
    // The rest is what neither the children (the larger count) nor this process spent.
    expect(text).toMatch(/the rest 1\.60 s \(postgres 1\.50 s\)/);
    const row = text.split('\n').find((l) => l.startsWith(scenario.runtime.toUpperCase()))!;
    // cells, cell wall, workers, median start wall 500 ms, median start CPU 250 ms, the slices, the polls.
    expect(row).toMatch(/\b1\s+5\.00 s \[5\.00 s\]\s+3\s+500 ms\s+250 ms/);
    expect(row).toMatch(/300 ms\s+1\.00 s\s+1\.70 s \(34 %\)\s+10 × 5 ms/);
  });

  it("splits the other processes' CPU by name, without this process or the workers", () => {
    const snap = (entries: [number, string, number, number, number][]) =>
      new Map(entries.map(([pid, comm, ppid, ticks, started]) => [pid, { comm, ppid, ticks, childTicks: 0, started }]));
    const before = snap([
      [2, 'bash', 1, 5000, 0],
      [10, 'postgres', 1, 100, 1],
      [11, 'acme-server', 12, 50, 2],
      [12, 'node', 2, 10, 3],
    ]);
    const after = snap([
      [2, 'bash', 1, 9000, 0], // the shell this process runs under: its children's time is not a server's
      [10, 'postgres', 1, 400, 1], // +300 ticks, its exited backends included
      [11, 'acme-server', 12, 50, 2], // idle
      [12, 'node', 2, 900, 3], // this process
      [13, 'node', 12, 70, 4], // a worker
      [14, 'postgres', 10, 20, 5], // a backend started meanwhile
      [15, 'acme-server', 12, 5, 9], // started meanwhile: all of its time counts
    ]);
    expect(otherProcessesCpu(before, after, 12, new Set([13]))).toEqual([
      { name: 'postgres', cpuMs: 3200 },
      { name: 'acme-server', cpuMs: 50 },
    ]);
    // And on this machine: this very process is in the snapshot, under its own name.
    expect(processCpu().get(process.pid)?.comm).toBeTruthy();
  });

  it("counts this process's exited children from its own line of the snapshots", () => {
    const me = (childTicks: number) => new Map([[12, { comm: 'node', ppid: 2, ticks: 0, childTicks, started: 3 }]]);
    expect(exitedChildrenCpuMs(me(40), me(170), 12)).toBe(1300);
    expect(exitedChildrenCpuMs(new Map(), me(170), 12)).toBe(null);
  });
});
