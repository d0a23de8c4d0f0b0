/**
 * `pnpm compare --profile`: where a run's time went. Everything is read from outside the workers:
 * each worker's start (spawn → its LOADED/READY line) and CPU from /proc, the world's ledger for
 * when a resumed run made its first call, the harness's own polls and reads (cell.ts counts
 * them), and the machine's CPU from /proc/stat.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { computeEvidence, type CellObservation, type HazardObservation } from '@vendor-review/conformance';
import { recordStartedWorkers, type StartedWorker, type WorkerLife } from '@vendor-review/testbed';
import { ms } from './bench/format.ts';
import type { RunObserver } from './observer.ts';
import type { Column, ReportDocument, Section } from './report/document.ts';

/** Busy and idle CPU time of the whole machine since boot, ms (every core summed). */
export function machineCpu(): { busyMs: number; idleMs: number } | null {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = f;
    return { busyMs: (user + nice + system + irq + softirq + steal) * 10, idleMs: (idle + iowait) * 10 };
  } catch {
    return null;
  }
}

interface ProcessCpu {
  comm: string;
  ppid: number;
  /** Clock ticks since it started: its own, and its children's that it has waited for (a server's exited backends). */
  ticks: number;
  /** Of those, its exited children's (cutime + cstime). */
  childTicks: number;
  started: number;
}

/** Every process's CPU so far, from /proc/<pid>/stat (empty where /proc is not there). */
export function processCpu(): Map<number, ProcessCpu> {
  const out = new Map<number, ProcessCpu>();
  let pids: string[] = [];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return out;
  }
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // The name sits in parentheses and may hold spaces: the fields are counted after its end.
      const close = stat.lastIndexOf(')');
      const f = stat.slice(close + 2).split(' ');
      const childTicks = Number(f[13]) + Number(f[14]);
      out.set(Number(pid), {
        comm: stat.slice(stat.indexOf('(') + 1, close),
        ppid: Number(f[1]),
        ticks: Number(f[11]) + Number(f[12]) + childTicks,
        childTicks,
        started: Number(f[19]),
      });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** The CPU of `self`'s children that exited between two snapshots, ms; null when either lacks it. */
export function exitedChildrenCpuMs(before: Map<number, ProcessCpu>, after: Map<number, ProcessCpu>, self: number) {
  const b = before.get(self);
  const a = after.get(self);
  return a && b ? (a.childTicks - b.childTicks) * 10 : null;
}

/**
 * The CPU the machine's other processes (the servers: PostgreSQL, a Temporal dev server, …) spent
 * between two snapshots, by process name, leaving out this process, those it runs under, and the
 * workers (counted on their own). A server's backends that exited meanwhile are in its count.
 */
export function otherProcessesCpu(
  before: Map<number, ProcessCpu>,
  after: Map<number, ProcessCpu>,
  self: number,
  workers: ReadonlySet<number>,
): { name: string; cpuMs: number }[] {
  // The processes this one runs under (a shell, pnpm): their children's time is everyone's.
  const above = new Set<number>();
  for (let p = after.get(self)?.ppid ?? 0; p > 1 && !above.has(p); p = after.get(p)?.ppid ?? 0) above.add(p);
  const byName = new Map<string, number>();
  for (const [pid, a] of after) {
    if (pid === self || above.has(pid) || workers.has(pid)) continue;
    const b = before.get(pid);
    const spent = b && b.started === a.started ? a.ticks - b.ticks : a.ticks;
    if (spent > 0) byName.set(a.comm, (byName.get(a.comm) ?? 0) + spent * 10);
  }
  return [...byName].map(([name, cpuMs]) => ({ name, cpuMs })).sort((x, y) => y.cpuMs - x.cpuMs);
}

export interface ProfileInput {
  wallMs: number;
  /** This process's CPU over the run (the harness, the world, the report): process.cpuUsage's delta. */
  harnessCpuMs: number;
  /**
   * The CPU of this process's children that exited over the run, by the kernel's count (its
   * cutime + cstime): the workers without sampling's shortfall, and any server stopped meanwhile.
   */
  exitedChildrenCpuMs: number | null;
  machine: { busyMs: number; idleMs: number } | null;
  /** The other processes' CPU over the run, by name (otherProcessesCpu). */
  others: readonly { name: string; cpuMs: number }[];
  cells: CellObservation[];
  hazards: HazardObservation[];
  workers: readonly StartedWorker[];
  labelOf: (runtime: string) => string;
  /** The runtimes' own servers: how long each took to start ("Restate server", 0.9 s); none when they are the user's. */
  serverStarts: readonly { label: string; ms: number }[];
}

const median = (xs: number[]): number | null => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const known = (xs: (number | null)[]) => xs.filter((x): x is number => x !== null);

/**
 * A crashed cell's time from the crash to the resumed run's first call, in three slices: the
 * harness (the crash → the first resuming worker spawned: confirming the death, reading the record),
 * worker starts (spawn → loaded, every resuming attempt), and the runtime (the rest: a lease to
 * lapse, a heartbeat timeout, a backoff, a replay).
 */
export function recoverySlices(obs: CellObservation): { harness: number; starts: number; runtime: number } | null {
  const crashAt = obs.crash?.at;
  const recovery = computeEvidence(obs, null).recoveryMs;
  if (crashAt === undefined || recovery === null) return null;
  const resumedAt = crashAt + recovery;
  const resumers = obs.workers.filter((w) => w.name !== 'A' && w.startedAt <= resumedAt);
  if (!resumers.length) return null;
  const harness = Math.max(0, Math.min(resumedAt, resumers[0]!.startedAt) - crashAt);
  const starts = sum(
    resumers.map((w) => Math.max(0, Math.min(w.loadedAt ?? w.exitedAt ?? resumedAt, resumedAt) - w.startedAt)),
  );
  return { harness, starts, runtime: Math.max(0, recovery - harness - starts) };
}

const startWall = (l: WorkerLife) => (l.loadedAt === null ? null : l.loadedAt - l.startedAt);

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** "langgraph-impl/worker" for langgraph-impl/.cache/worker-bundle-<hash>.cjs; a source entry by its path. */
function entryName(entry: string): string {
  const rel = path.relative(REPO_ROOT, path.resolve(REPO_ROOT, entry));
  return rel.replace('/.cache/', '/').replace(/-bundle-[0-9a-f]+\.cjs$|\.[cm]?[tj]s$/, '');
}

/** A table section: its heading, the columns (numeric from `numericFrom` on), the rows, notes after. */
function tableSection(heading: string, titles: string[], rows: string[][], notes: string[] = []): Section {
  const columns: Column[] = titles.map((title, i) => ({ title, numeric: i > 0 }));
  return {
    heading,
    level: 3,
    blocks: [
      { kind: 'table', table: { columns, rows: rows.map((cells) => ({ cells })) } },
      ...notes.map((text) => ({ kind: 'paragraph' as const, text, style: 'note' as const })),
    ],
  };
}

/** " (postgres 61.2 s, temporal 38.0 s, …)": the other processes that spent at least a second. */
function othersText(others: ProfileInput['others']): string {
  const shown = others.filter((o) => o.cpuMs >= 1000).slice(0, 4);
  return shown.length ? ` (${shown.map((o) => `${o.name} ${ms(o.cpuMs)}`).join(', ')})` : '';
}

/** Where the time went, as a document: `pnpm compare --profile` prints it and writes profile.md. */
export function profileDocument(p: ProfileInput): ReportDocument {
  const runtimes = [...new Set(p.cells.map((c) => c.scenario.runtime))];
  const workerCpu = sum(known(p.workers.map((w) => w.life.cpuMs)));
  const busy = p.machine?.busyMs ?? null;
  const share = p.machine
    ? ` (${Math.round((100 * p.machine.busyMs) / (p.machine.busyMs + p.machine.idleMs))} % of all cores)`
    : '';
  const meta = [
    `wall ${ms(p.wallMs)}; machine CPU ${busy === null ? '—' : ms(busy)} busy${share}: workers ${ms(workerCpu)} (${p.workers.length} processes${p.exitedChildrenCpuMs === null ? '' : `; every child process that exited, by the kernel's count: ${ms(p.exitedChildrenCpuMs)}`}), this process (harness, world, report) ${ms(p.harnessCpuMs)}, the rest ${busy === null ? '—' : ms(Math.max(0, busy - Math.max(workerCpu, p.exitedChildrenCpuMs ?? 0) - p.harnessCpuMs))}${othersText(p.others)}`,
    ...(p.serverStarts.length
      ? [`servers' starts: ${p.serverStarts.map((s) => `${s.label} ${ms(s.ms)}`).join(', ')}`]
      : []),
  ];

  const cellRows = runtimes.map((rt) => {
    const cells = p.cells.filter((c) => c.scenario.runtime === rt);
    const lives = cells.flatMap((c) => c.workers);
    const slices = cells.map(recoverySlices).filter((s) => s !== null);
    const wall = cells.map((c) => c.endedAt - c.startedAt);
    const h = cells.map((c) => c.harness).filter((x) => x !== undefined);
    // The run's last call to the world → the cell's end: the workers leaving, the final reads.
    const tails = cells.filter((c) => c.ledger.length).map((c) => c.endedAt - Math.max(...c.ledger.map((e) => e.at)));
    return [
      p.labelOf(rt),
      String(cells.length),
      `${ms(median(wall))} [${ms(sum(wall))}]`,
      String(lives.length),
      ms(median(known(lives.map(startWall)))),
      ms(median(known(lives.map((l) => l.loadedCpuMs)))),
      `${ms(median(known(lives.map((l) => l.cpuMs))))} [${ms(sum(known(lives.map((l) => l.cpuMs))))}]`,
      ms(median(slices.map((s) => s.harness))),
      ms(median(slices.map((s) => s.starts))),
      `${ms(median(slices.map((s) => s.runtime)))} (${wall.length ? Math.round((100 * sum(slices.map((s) => s.runtime))) / sum(wall)) : 0} %)`,
      `${Math.round(median(h.map((x) => x.polls)) ?? 0)} × ${ms(median(h.map((x) => x.pollMs / Math.max(1, x.polls))))}`,
      ms(median(h.map((x) => x.readMs))),
      ms(median(tails)),
    ];
  });
  const sections: Section[] = [
    tableSection(
      'Crash cells, per runtime (medians; totals in brackets)',
      [
        'runtime',
        'cells',
        'cell wall',
        'workers',
        'start wall',
        'start CPU',
        'worker CPU',
        'crash→spawn',
        'resumer starts',
        'runtime wait (share of cell wall)',
        'polls × each',
        'reads',
        'last call→end',
      ],
      cellRows,
      [
        'start: spawn → the worker says it is loaded and connected (LOADED/READY); CPU from /proc. The crash → the resumed run’s first call is split three ways: crash→spawn (the harness: the death confirmed, the record read), resumer starts (every resuming attempt, spawn → loaded), runtime wait (the rest: a lease to lapse, a heartbeat timeout, a backoff, a replay). polls: the harness’s status reads while a worker ran; reads: records and ledger; last call→end: the run’s last call to the world → the cell’s end (its workers leaving, the final reads).',
      ],
    ),
  ];

  if (p.hazards.length) {
    const byRuntime = [...new Set(p.hazards.map((h) => h.scenario.runtime))].map((rt) => {
      const walls = p.hazards.filter((h) => h.scenario.runtime === rt).map((h) => h.endedAt - h.startedAt);
      return [p.labelOf(rt), String(walls.length), ms(median(walls)), ms(sum(walls))];
    });
    sections.push(tableSection('Production hazards, per runtime', ['runtime', 'rows', 'median', 'total'], byRuntime));
    const wallOf = (h: HazardObservation) => h.endedAt - h.startedAt;
    const longest = [...p.hazards].sort((a, b) => wallOf(b) - wallOf(a)).slice(0, 8);
    sections.push(
      tableSection(
        'Longest hazard rows',
        ['row', 'wall', 'verdict'],
        longest.map((h) => [
          `${p.labelOf(h.scenario.runtime)} ${h.scenario.variant} ${h.scenario.hazard}`,
          ms(wallOf(h)),
          h.verdict ?? h.status,
        ]),
      ),
    );
  }

  const entries = [...new Set(p.workers.map((w) => w.entry))];
  // An entry is named by the runtimes whose cells ran it (LangGraph's two APIs share one worker).
  const runtimeOf = new Map(p.cells.flatMap((c) => c.workers.map((l) => [l, c.scenario.runtime] as const)));
  const entryLabel = (e: string) => {
    const names = new Set(p.workers.filter((w) => w.entry === e).map((w) => runtimeOf.get(w.life)));
    names.delete(undefined);
    return names.size ? [...names].map((n) => p.labelOf(n!)).join(', ') : entryName(e);
  };
  sections.push(
    tableSection(
      'Every worker process, per entry (crash cells and hazards)',
      ['worker of', 'processes', 'start wall', 'start CPU', 'CPU (total)'],
      entries.map((e) => {
        const lives = p.workers.filter((w) => w.entry === e).map((w) => w.life);
        return [
          entryLabel(e),
          String(lives.length),
          ms(median(known(lives.map(startWall)))),
          ms(median(known(lives.map((l) => l.loadedCpuMs)))),
          ms(sum(known(lives.map((l) => l.cpuMs)))),
        ];
      }),
    ),
  );
  return { title: 'Where the time went', meta, sections };
}

/**
 * `--profile` as an observer of the comparison: the machine's and the processes' CPU from its
 * start, every worker started, every cell and hazard run; at the end, where the time went.
 */
export function profiler(): RunObserver {
  const workers = recordStartedWorkers();
  const cpu = process.cpuUsage();
  const machine = machineCpu();
  const processes = processCpu();
  const cells: CellObservation[] = [];
  const hazards: HazardObservation[] = [];
  return {
    cell: (obs) => cells.push(obs),
    hazard: (obs) => hazards.push(obs),
    report: ({ wallMs, infra, runtimes, labelOf }) => {
      const machineNow = machineCpu();
      const processesNow = processCpu();
      const harness = process.cpuUsage(cpu);
      // In table order, whatever order they ended in.
      const inOrder = <T extends { scenario: { runtime: string } }>(xs: T[]) =>
        xs
          .map((x, i) => ({ x, i, at: runtimes.indexOf(x.scenario.runtime) }))
          .sort((a, b) => a.at - b.at || a.i - b.i)
          .map(({ x }) => x);
      return profileDocument({
        wallMs,
        exitedChildrenCpuMs: exitedChildrenCpuMs(processes, processesNow, process.pid),
        harnessCpuMs: (harness.user + harness.system) / 1000,
        machine:
          machine && machineNow
            ? { busyMs: machineNow.busyMs - machine.busyMs, idleMs: machineNow.idleMs - machine.idleMs }
            : null,
        cells: inOrder(cells),
        hazards: inOrder(hazards),
        serverStarts: [...infra.servers.values()].flatMap(({ spec, server }) =>
          server.owned && server.startMs !== undefined ? [{ label: spec.label, ms: server.startMs }] : [],
        ),
        others: otherProcessesCpu(
          processes,
          processesNow,
          process.pid,
          new Set(workers().flatMap((w) => (w.life.pid ? [w.life.pid] : []))),
        ),
        workers: workers(),
        labelOf,
      });
    },
  };
}
