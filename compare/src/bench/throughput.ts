import { freshDatabase, WorkerProcess, type FreshDatabase } from '@vendor-review/domain/infra';
import { worldClient } from '@vendor-review/domain/world';
import type { RunHandle, Variant, WorkerSpec } from '@vendor-review/domain';
import type { BenchContext } from './context.ts';
import { settledCommits } from './pg-stats.ts';
import { cpuMs, postmasterPid, reapedChildrenCpuMs, temporalServerPid, treeCpuMs } from './proc.ts';
import { sizedRequest } from './requests.ts';
import { round1, summarize, roundSummary, type Summary } from './stats.ts';

/**
 * Reviews at once, through real worker processes (one, then two), on a database of their own so
 * that its commit count is theirs alone. The window is from the first call any review makes to the
 * world until the last review is recorded complete: the workers' start is outside it and is
 * reported beside it. CPU comes from the kernel: the workers' (less what they spent starting),
 * PostgreSQL's and the Temporal server's.
 */
export interface ThroughputCell {
  runtime: 'langgraph' | 'temporal';
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
    temporalServer: number | null;
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
  temporal: number | null;
}

interface Snapshot {
  workersReaped: number;
  postgres: number | null;
  temporal: number | null;
}

function snapshot(s: Servers): Snapshot {
  return {
    workersReaped: reapedChildrenCpuMs(),
    postgres: s.postmaster === null ? null : treeCpuMs(s.postmaster),
    temporal: s.temporal === null ? null : cpuMs(s.temporal),
  };
}

const diff = (a: number | null, b: number | null) => (a === null || b === null ? null : b - a);

/**
 * When each worker is ready for work (Temporal: it prints READY; LangGraph: it starts its first
 * run), and the CPU it had spent by then, sampled every 50 ms until that moment.
 */
const READY = /WORKER READY|starting from the request/;

function watchStart(workers: WorkerProcess[]) {
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
    w.waitForLine(READY, 120_000).then(() => {
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

async function langGraphCell(
  ctx: BenchContext,
  db: FreshDatabase,
  servers: Servers,
  c: { concurrency: number; processes: number; mode: Variant },
): Promise<ThroughputCell> {
  const lgb = await import('@vendor-review/langgraph/bench');
  const lg = await import('@vendor-review/langgraph');
  await lg.setupDatabase(db.url);
  const request = sizedRequest(ctx.infra.worldUrl, ctx.plan.requirements);
  const pool = lgb.createPool(db.url, { max: 4 });
  const runs = await Promise.all(
    Array.from({ length: c.concurrency }, () =>
      lgb.createApprovedRun(pool, {
        request,
        variant: c.mode,
        durability: lg.defaultDurability(c.mode),
        checkpointer: 'postgres',
      }),
    ),
  );
  await pool.end();
  const adapter = ctx.lg!.adapter({});
  const template = adapter.workerSpec({ runId: runs[0]!.runId } as RunHandle, { name: 'T', crashPlan: null });
  const commits0 = await settledCommits(ctx.infra.databaseUrl, db.name);
  const before = snapshot(servers);
  const lanes = Array.from({ length: c.processes }, (_, p) => runs.filter((_, i) => i % c.processes === p));
  const workers = lanes.map(
    (lane, p) =>
      new WorkerProcess(`T${p + 1}`, {
        ...template,
        args: lane.flatMap((r) => ['--run', r.runId]),
        env: { ...template.env, DATABASE_URL: db.url },
      } satisfies WorkerSpec),
  );
  const start = watchStart(workers);
  start.all.catch(() => undefined); // a worker that dies early is reported by its exit below
  const lives = await Promise.all(workers.map((w) => w.exited));
  start.stop();
  const after = snapshot(servers);
  const commits1 = await settledCommits(ctx.infra.databaseUrl, db.name);

  const check = lgb.createPool(db.url, { max: 1 });
  const { rows } = await check.query<{ status: string; finished_at: Date | null; run_id: string }>(
    'SELECT run_id, status, finished_at FROM lg_runs',
  );
  await check.end();
  const ids = new Set(runs.map((r) => r.runId));
  const ledger = (await worldClient(ctx.infra.worldUrl).ledger()).filter((e) => e.runId !== null && ids.has(e.runId));
  const first = ledger.length ? Math.min(...ledger.map((e) => e.at)) : null;
  const completed = rows.filter((r) => r.status === 'completed');
  const last = completed.length ? Math.max(...completed.map((r) => r.finished_at!.getTime())) : null;
  const failures = lives
    .filter((l) => l.exitCode !== 0)
    .map((l) => `worker ${l.name} exited ${l.signal ?? l.exitCode}: ${l.logTail.split('\n').at(-1)?.slice(0, 160)}`);
  return figures(c, 'langgraph', {
    before,
    after,
    commits: commits1 - commits0,
    first,
    last,
    completed: completed.length,
    events: null,
    workers,
    startMs: start.startMs(),
    startupCpu: start.cpuMs(),
    failures,
  });
}

async function temporalCell(
  ctx: BenchContext,
  db: FreshDatabase,
  servers: Servers,
  c: { concurrency: number; processes: number; mode: Variant },
): Promise<ThroughputCell> {
  const tm = await import('@vendor-review/temporal');
  const tmb = await import('@vendor-review/temporal/bench');
  await tm.setupDatabase(db.url);
  const client = ctx.tm!.client;
  const taskQueue = `bench-tp-${process.pid}-${Date.now()}`;
  const adapter = await ctx.tm!.adapter({});
  const fake = { runId: 'bench', taskQueue, config: { variant: c.mode, durability: null } } as unknown as RunHandle;
  const template = adapter.workerSpec(fake, { name: 'T', crashPlan: null });
  const commits0 = await settledCommits(ctx.infra.databaseUrl, db.name);
  const before = snapshot(servers);
  const workers = Array.from(
    { length: c.processes },
    (_, p) =>
      new WorkerProcess(`T${p + 1}`, {
        ...template,
        env: { ...template.env, ...(c.mode === 'hardened' ? { DATABASE_URL: db.url } : {}) },
      }),
  );
  const start = watchStart(workers);
  const failures: string[] = [];
  let first: number | null = null;
  let last: number | null = null;
  let completed = 0;
  let events = 0;
  try {
    await start.all;
    const request = sizedRequest(ctx.infra.worldUrl, ctx.plan.requirements);
    const started = await Promise.all(
      Array.from({ length: c.concurrency }, async () => {
        const s = await tm.startRun({ client, taskQueue, request, variant: c.mode });
        await tm.approveRun({ client, runId: s.runId, approved: true, by: 'bench' });
        return s;
      }),
    );
    const results = await Promise.allSettled(started.map((s) => client.workflow.getHandle(s.workflowId).result()));
    completed = results.filter((r) => r.status === 'fulfilled').length;
    for (const r of results) if (r.status === 'rejected') failures.push(String(r.reason).slice(0, 160));
    const figs = await Promise.all(started.map((s) => tmb.historyFigures(client, s.workflowId)));
    events = figs.reduce((n, f) => n + f.events, 0);
    const closed = figs.map((f) => f.closedAt).filter((x): x is number => x !== null);
    last = closed.length ? Math.max(...closed) : null;
    const ids = new Set(started.map((s) => s.runId));
    const ledger = (await worldClient(ctx.infra.worldUrl).ledger()).filter((e) => e.runId !== null && ids.has(e.runId));
    first = ledger.length ? Math.min(...ledger.map((e) => e.at)) : null;
  } finally {
    start.stop();
    await Promise.all(workers.map((w) => w.stop(5000)));
  }
  const after = snapshot(servers);
  const commits1 = await settledCommits(ctx.infra.databaseUrl, db.name);
  return figures(c, 'temporal', {
    before,
    after,
    commits: commits1 - commits0,
    first,
    last,
    completed,
    events,
    workers,
    startMs: start.startMs(),
    startupCpu: start.cpuMs(),
    failures,
  });
}

function figures(
  c: { concurrency: number; processes: number; mode: Variant },
  runtime: ThroughputCell['runtime'],
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
  const tmCpu = runtime === 'temporal' ? diff(m.before.temporal, m.after.temporal) : null;
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
      temporalServer: perReview(tmCpu),
      total: perReview(workersCpu + (pgCpu ?? 0) + (tmCpu ?? 0)),
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
    temporal: ctx.infra.temporal ? temporalServerPid(ctx.infra.temporal.address) : null,
  };
  const { concurrency, processes, variants } = ctx.plan.throughput;
  const cells: ThroughputCell[] = [];
  // More processes than reviews would leave a worker idle: those cells are not run.
  const plan = ctx.runtimes.flatMap((runtime) =>
    variants.flatMap((mode) =>
      processes.flatMap((p) =>
        concurrency.filter((n) => n >= p).map((n) => ({ runtime, mode, processes: p, concurrency: n })),
      ),
    ),
  );
  for (const [i, cell] of plan.entries()) {
    const db = await freshDatabase(ctx.infra.databaseUrl, 'bench_tp');
    try {
      const run = cell.runtime === 'langgraph' ? langGraphCell : temporalCell;
      const out = await run(ctx, db, servers, cell);
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
