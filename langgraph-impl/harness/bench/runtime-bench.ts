/**
 * What `pnpm bench` measures of LangGraph, and how (the contract: RuntimeBench in
 * @vendor-review/conformance). Its overheads are stated in PostgreSQL commits: a checkpoint
 * in `sync` is one.
 */
import type { RuntimeBench, RunHandle, WorkerSpec } from '@vendor-review/conformance';
import { defaultDurability } from '../../src/durability.ts';
import { createPool } from '../../src/pool.ts';
import { setupDatabase } from '../../src/setup.ts';
import { TABLES } from '../../src/sql.ts';
import { createApprovedRun } from './in-process.ts';
import { perStepConfigs, type LangGraphMode } from './per-step.ts';
import { checkpointStorage } from './storage.ts';

const STORED: Record<string, LangGraphMode> = {
  exit: { saver: 'postgres', durability: 'exit', variant: 'naive' },
  sync: { saver: 'postgres', durability: 'sync', variant: 'naive' },
  hardened: { saver: 'postgres', durability: 'sync', variant: 'hardened' },
};

/** A lease-holding worker announces its first run with this line. */
const READY = /starting from the request/;

export const bench: RuntimeBench = {
  unit: 'commit',

  async inProcess(env) {
    const pool = createPool(env.databaseUrl, { max: 8 });
    const o = { pool, ports: env.ports };
    return {
      workerStartMs: null,
      perStep: ({ request, shape }) => perStepConfigs(o, request, shape),
      storage: checkpointStorage(o, STORED),
      close: () => pool.end(),
    };
  },

  throughput: {
    ready: READY,
    // The runs exist, approved, before the workers start; each process is handed its lane of them.
    async prepare({ started, databaseUrl, request, variant, concurrency, processes }) {
      await setupDatabase(databaseUrl);
      const pool = createPool(databaseUrl, { max: 4 });
      const runs = await Promise.all(
        Array.from({ length: concurrency }, () =>
          createApprovedRun(pool, {
            request,
            variant,
            durability: defaultDurability(variant),
            checkpointer: 'postgres',
          }),
        ),
      );
      await pool.end();
      const template = started.adapter.workerSpec({ runId: runs[0]!.runId } as RunHandle, {
        name: 'T',
        crashPlan: null,
      });
      const lanes = Array.from({ length: processes }, (_, p) => runs.filter((_, i) => i % processes === p));
      const failures: string[] = [];
      return {
        workers: lanes.map((lane): WorkerSpec => ({
          ...template,
          args: lane.flatMap((r) => ['--run', r.runId]),
          env: { ...template.env, DATABASE_URL: databaseUrl },
        })),
        async drive({ workers }) {
          const lives = await Promise.all(workers.map((w) => w.exited));
          for (const l of lives)
            if (l.exitCode !== 0)
              failures.push(
                `worker ${l.name} exited ${l.signal ?? l.exitCode}: ${l.logTail.split('\n').at(-1)?.slice(0, 160)}`,
              );
        },
        async outcome() {
          const check = createPool(databaseUrl, { max: 1 });
          const { rows } = await check.query<{ status: string; finished_at: Date | null }>(
            `SELECT status, finished_at FROM ${TABLES.runs}`,
          );
          await check.end();
          const completed = rows.filter((r) => r.status === 'completed');
          return {
            runIds: runs.map((r) => r.runId),
            completed: completed.length,
            lastCompletedAt: completed.length ? Math.max(...completed.map((r) => r.finished_at!.getTime())) : null,
            historyEvents: null,
            failures,
          };
        },
      };
    },
  },

  recovery: {
    knobs: [
      {
        name: 'leaseTtlMs',
        label: 'lease TTL',
        phrase: 'a lease TTL',
        crashPoint: 'after-model',
        values: { smoke: [1000], quick: [1000, 3000], full: [1000, 3000, 10_000] },
        loaded: { smoke: [1000], quick: [1000, 3000], full: [500, 1000, 2000, 3000] },
      },
    ],
    // A live worker loses a run when its lease lapses while it is only slow: it is fenced out.
    async loaded({ env, started, runs, request }) {
      const { WorkerProcess } = await import('@vendor-review/testbed');
      const pool = createPool(env.databaseUrl, { max: 8 });
      try {
        const created = await Promise.all(
          Array.from({ length: runs }, () =>
            createApprovedRun(pool, { request, variant: 'hardened', durability: 'sync', checkpointer: 'postgres' }),
          ),
        );
        const template = started.adapter.workerSpec({ runId: created[0]!.runId } as RunHandle, {
          name: 'L',
          crashPlan: null,
        });
        const worker = new WorkerProcess('L', { ...template, args: created.flatMap((r) => ['--run', r.runId]) });
        const life = await worker.exited;
        const { rows } = await pool.query<{ status: string }>(
          `SELECT status FROM ${TABLES.runs} WHERE run_id = ANY($1)`,
          [created.map((r) => r.runId)],
        );
        const fenced = /lost the lease/.test(worker.output());
        return {
          lost: rows.filter((r) => r.status !== 'completed').length,
          timedOutAttempts: null,
          failed:
            life.exitCode === 0 || fenced
              ? []
              : [`worker exited ${life.signal ?? life.exitCode}: ${life.logTail.slice(-200)}`],
        };
      } finally {
        await pool.end();
      }
    },
  },
};
