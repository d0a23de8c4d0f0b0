import { freshDatabase, WorkerProcess, type FreshDatabase } from '@vendor-review/testbed';
import { worldClient } from '@vendor-review/world';
import type { Variant } from '@vendor-review/pipeline';
import type { ThroughputBench } from '@vendor-review/conformance';
import type { BenchContext } from './context.ts';
import type { Benched } from './benched.ts';
import { settledCommits } from './pg-stats.ts';
import { cpuMs, postmasterPid, reapedChildrenCpuMs, treeCpuMs } from './proc.ts';
import { sizedRequest } from './requests.ts';
import { round1, summarize, roundSummary, type Summary } from './stats.ts';

/**
 * Reviews at once, through each runtime's real worker processes (one, then two; its bench says
 * how its runs and workers are set up), on a database of their own so
 * that its commit count is theirs alone. The window is from the first call any review makes to the
 * world until the last review is recorded complete: the workers' start is outside it and is
 * reported beside it. CPU comes from the kernel: the workers' (less what they spent starting),
 * PostgreSQL's and that of the runtime's own servers (Temporal's), where they run on this machine.
 */
export interface ThroughputCell {
  runtime: string;
  mode: Variant;
  concurrency: number;
  processes: number;
  reviews: number;
  completed: number;
  windowMs: number | null;
  reviewsPerSecond: number | null;
  cpuSecondsPerReview: {
    workers: number | null;
    postgres: number | null;
    /** The runtime's own servers (none: null). */
    server: number | null;
    total: number | null;
  };
  /** Includes the workers' own connections and, for Temporal, the outbox drainer's polls while they live. */
  pgCommitsPerReview: number | null;
  historyEventsPerReview: number | null;
  workerStartMs: Summary | null;
  workerStartCpuMs: Summary | null;
  peakWorkerRssMb: number | null;
  failures: string[];
}

interface Servers {
  postmaster: number | null;
  /** Each runtime server's process, by id (null where it runs elsewhere). */
  own: ReadonlyMap<string, number | null>;
}

interface Snapshot {
  workersReaped: number;
  postgres: number | null;
  /** Each runtime server's CPU so far, by id. */
  own: Map<string, number | null>;
}

function snapshot(s: Servers): Snapshot {
  return {
    workersReaped: reapedChildrenCpuMs(),
    postgres: s.postmaster === null ? null : treeCpuMs(s.postmaster),
    own: new Map([...s.own].map(([id, pid]) => [id, pid === null ? null : cpuMs(pid)])),
  };
}

const diff = (a: number | null, b: number | null) => (a === null || b === null ? null : b - a);

/**
 * When each worker is ready for work (it prints the line its bench names), and the CPU it had
 * spent by then, sampled every 50 ms until that moment.
 */
function watchStart(workers: WorkerProcess[], readyLine: RegExp) {
  const readyAt = new Map<WorkerProcess, number>();
  const cpuAtReady = new Map<WorkerProcess, number>();
  const timer = setInterval(() => {
    for (const w of workers) {
      if (readyAt.has(w) || w.pid === null) continue;
      const c = cpuMs(w.pid);
      if (c !== null) cpuAtReady.set(w, c);
    }
  }, 50);
  const ready = workers.map((w) =>
    w.waitForLine(readyLine, 120_000).then(() => {
      readyAt.set(w, Date.now());
    }),
  );
  return {
    /** Resolves once every worker is ready; rejects with a worker's output if one dies first. */
    all: Promise.all(ready),
    stop: () => clearInterval(timer),
    startMs: () => workers.filter((w) => readyAt.has(w)).map((w) => readyAt.get(w)! - w.life.startedAt),
    cpuMs: () => [...cpuAtReady.values()],
  };
}

/** One cell: the bench's runs and workers on a database of the cell's own, measured from outside. */
async function runCell(
  ctx: BenchContext,
  b: Benched,
  tp: ThroughputBench,
  db: FreshDatabase,
  servers: Servers,
  c: { concurrency: number; processes: number; mode: Variant },
): Promise<ThroughputCell> {
  const request = sizedRequest(ctx.infra.worldUrl, ctx.plan.requirements);
  const cell = await tp.prepare({
    env: ctx.env,
    started: ctx.started(b),
    databaseUrl: db.url,
    request,
    variant: c.mode,
    concurrency: c.concurrency,
    processes: c.processes,
  });
  const commits0 = await settledCommits(ctx.infra.databaseUrl, db.name);
  const before = snapshot(servers);
  const workers = cell.workers.map((spec, p) => new WorkerProcess(`T${p + 1}`, spec));
  const start = watchStart(workers, tp.ready);
  start.all.catch(() => undefined); // a worker that dies early is reported by its exit or the bench
  try {
    await cell.drive({ workers, ready: start.all });
  } finally {
    start.stop();
    await Promise.all(workers.map((w) => w.stop(5000)));
  }
  const after = snapshot(servers);
  const commits1 = await settledCommits(ctx.infra.databaseUrl, db.name);
  const out = await cell.outcome();
  const ids = new Set(out.runIds);
  const ledger = (await worldClient(ctx.infra.worldUrl).ledger()).filter((e) => e.runId !== null && ids.has(e.runId));
  return figures(
    c,
    b.info.name,
    (b.module.servers ?? []).map((spec) => spec.id),
    {
      before,
      after,
      commits: commits1 - commits0,
      first: ledger.length ? Math.min(...ledger.map((e) => e.at)) : null,
      last: out.lastCompletedAt,
      completed: out.completed,
      events: out.historyEvents,
      workers,
      startMs: start.startMs(),
      startupCpu: start.cpuMs(),
      failures: out.failures,
    },
  );
}

function figures(
  c: { concurrency: number; processes: number; mode: Variant },
  runtime: string,
  /** The runtime's own servers: their CPU is part of its cost. */
  ownServers: readonly string[],
  m: {
    before: Snapshot;
    after: Snapshot;
    commits: number;
    first: number | null;
    last: number | null;
    completed: number;
    events: number | null;
    workers: WorkerProcess[];
    startMs: number[];
    startupCpu: number[];
    failures: string[];
  },
): ThroughputCell {
  const n = c.concurrency;
  const windowMs = m.first !== null && m.last !== null ? Math.max(1, m.last - m.first) : null;
  const startupTotal = m.startupCpu.reduce((a, b) => a + b, 0);
  const workersCpu = m.after.workersReaped - m.before.workersReaped - startupTotal;
  const pgCpu = diff(m.before.postgres, m.after.postgres);
  const serverCpu = ownServers.length
    ? ownServers
        .map((id) => diff(m.before.own.get(id) ?? null, m.after.own.get(id) ?? null))
        .reduce<number | null>((sum, ms) => (sum === null || ms === null ? null : sum + ms), 0)
    : null;
  const perReview = (ms: number | null) => (ms === null ? null : Math.round((ms / 1000 / n) * 1000) / 1000);
  const rss = m.workers.map((w) => w.life.peakRssKb).filter((x): x is number => x !== null);
  return {
    runtime,
    mode: c.mode,
    concurrency: n,
    processes: c.processes,
    reviews: n,
    completed: m.completed,
    windowMs,
    reviewsPerSecond: windowMs && m.completed ? Math.round((m.completed / (windowMs / 1000)) * 100) / 100 : null,
    cpuSecondsPerReview: {
      workers: perReview(workersCpu),
      postgres: perReview(pgCpu),
      server: perReview(serverCpu),
      total: perReview(workersCpu + (pgCpu ?? 0) + (serverCpu ?? 0)),
    },
    pgCommitsPerReview: round1(m.commits / n),
    historyEventsPerReview: m.events === null ? null : round1(m.events / n),
    workerStartMs: roundSummary(summarize(m.startMs)),
    workerStartCpuMs: roundSummary(summarize(m.startupCpu)),
    peakWorkerRssMb: rss.length ? Math.round(Math.max(...rss) / 1024) : null,
    failures: m.failures,
  };
}

export async function measureThroughput(ctx: BenchContext): Promise<ThroughputCell[]> {
  const servers: Servers = {
    postmaster: await postmasterPid(ctx.infra.databaseUrl).catch(() => null),
    own: new Map([...ctx.infra.servers].map(([id, { server }]) => [id, server.pid()])),
  };
  const { concurrency, processes, variants } = ctx.plan.throughput;
  const cells: ThroughputCell[] = [];
  // More processes than reviews would leave a worker idle: those cells are not run.
  const plan = ctx.benched.flatMap((b) => {
    const tp = b.bench.throughput;
    if (!tp) return [];
    return variants.flatMap((mode) =>
      processes.flatMap((p) =>
        concurrency
          .filter((n) => n >= p)
          .map((n) => ({ b, tp, runtime: b.info.name, mode, processes: p, concurrency: n })),
      ),
    );
  });
  for (const [i, cell] of plan.entries()) {
    const db = await freshDatabase(ctx.infra.databaseUrl, 'bench_tp');
    try {
      const out = await runCell(ctx, cell.b, cell.tp, db, servers, cell);
      cells.push(out);
      ctx.log(
        `throughput [${i + 1}/${plan.length}] ${cell.runtime} ${cell.mode} ×${cell.concurrency} on ${cell.processes} process(es): ` +
          `${out.completed}/${out.reviews} done, ${out.reviewsPerSecond ?? '—'} reviews/s, ${out.cpuSecondsPerReview.total ?? '—'} CPU s/review, ` +
          `${out.pgCommitsPerReview} commits/review${out.historyEventsPerReview === null ? '' : `, ${out.historyEventsPerReview} events/review`}` +
          (out.failures.length ? ` · ${out.failures[0]}` : ''),
      );
    } finally {
      await db.drop().catch(() => undefined);
    }
  }
  return cells;
}
