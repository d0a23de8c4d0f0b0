import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import {
  initialState,
  parseReviewRequest,
  STATE_SCHEMA_VERSION,
  type ReviewState,
  retryRuleFor,
} from '@vendor-review/pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveRun } from '../src/approvals.ts';
import { ReviewSaver } from '../src/checkpointer.ts';
import { CheckpointUnreadableError, NothingToResumeError } from '../src/errors.ts';
import { executeRun } from '../src/execute-run.ts';
import { buildGraph } from '../src/graph.ts';
import { getRun, readCheckpointRows } from '../harness/inspect.ts';
import { claimLease, fencedPool, FencedOutError, LeaseHeldError } from '../src/lease.ts';
import { createPool } from '../src/pool.ts';
import { runRetention } from '../src/retention.ts';
import { createRun, loadRun } from '../src/runs.ts';
import { writeV1Checkpoint } from '../harness/v1-checkpoint.ts';
import { executeOnFakes, freshTestDatabase } from './db.ts';
import { fakePorts, fakeSteps, sampleRequest, type FaultRule } from './fakes.ts';

let db: { url: string; drop(): Promise<void> };
beforeAll(async () => {
  db = await freshTestDatabase('hardening');
});
afterAll(async () => {
  await db?.drop();
});

const execute = (runId: string, world = fakePorts(), extra: { restart?: boolean } = {}) =>
  executeOnFakes(db.url, runId, world.ports, extra);

async function approvedRun(
  variant: 'naive' | 'hardened',
  opts: { durability?: 'sync' | 'async' | 'exit'; checkpointer?: 'memory' | 'postgres' } = {},
) {
  const { runId, threadId } = await createRun({ databaseUrl: db.url, request: sampleRequest(), variant, ...opts });
  await approveRun({ databaseUrl: db.url, runId, approved: true, by: 'qa' });
  return { runId, threadId };
}

describe.concurrent('retry policy and dead letter (hardened)', () => {
  const scenario = async (fault: FaultRule) => {
    const world = fakePorts();
    world.faults.push(fault);
    const { runId } = await approvedRun('hardened');
    const outcome = await execute(runId, world);
    return { world, outcome, view: await getRun({ databaseUrl: db.url, runId }), row: await loadRunRow(runId) };
  };

  it('a permanent fault goes to the dead letter after one attempt, run failed with input, error and attempts', async () => {
    const { world, outcome, row } = await scenario({
      kind: 'model',
      match: 'EXTRACT',
      error: 'permanent',
      times: 'forever',
    });
    expect(outcome.status).toBe('failed');
    expect(world.calls.filter((c) => c.kind === 'model' && c.meta.step === 'EXTRACT')).toHaveLength(1);
    expect(outcome.state?.failure).toMatchObject({ step: 'EXTRACT', attempts: 1 });
    expect(outcome.state?.failure?.error).toMatch(/PermanentError/);
    expect(outcome.state?.failure?.input).toMatchObject({ current: { requirementId: 'soc2' } });
    expect(row?.status).toBe('failed');
    expect(row?.failure).toMatchObject({ step: 'EXTRACT', attempts: 1 });
    expect(world.calls.some((c) => c.kind === 'mail')).toBe(false);
  });

  it('a transient fault that clears is retried and the run succeeds', async () => {
    const { world, outcome } = await scenario({ kind: 'tracker', error: 'transient', times: 2 });
    expect(outcome.status).toBe('completed');
    const notes = world.calls.filter((c) => c.kind === 'tracker' && c.op === 'note:soc2');
    expect(notes.map((c) => [c.meta.attempt, c.outcome])).toEqual([
      [1, 'fault'],
      [2, 'fault'],
      [3, 'ok'],
    ]);
    // the same key on every attempt: the retry is the same logical operation
    expect(new Set(notes.map((c) => c.meta.idempotencyKey)).size).toBe(1);
  });

  it('a transient fault that never clears stops at the cap and dead-letters', async () => {
    const { world, outcome } = await scenario({
      kind: 'web',
      match: '/security',
      error: 'transient',
      times: 'forever',
    });
    expect(outcome.status).toBe('failed');
    expect(world.calls.filter((c) => c.kind === 'web' && c.op.endsWith('/security'))).toHaveLength(
      retryRuleFor('page').maxAttempts,
    );
    expect(outcome.state?.failure).toMatchObject({ step: 'FETCH', attempts: retryRuleFor('page').maxAttempts });
    // siblings finished; EXTRACT never ran because the failure routed to DEAD_LETTER
    expect(world.calls.some((c) => c.kind === 'model')).toBe(false);
  });

  it('naive has no retry: the first transient fault fails the run', async () => {
    const world = fakePorts();
    world.faults.push({ kind: 'tracker', error: 'transient', times: 1 });
    const { runId } = await approvedRun('naive');
    const outcome = await execute(runId, world);
    expect(outcome.status).toBe('failed');
    expect(world.calls.filter((c) => c.kind === 'tracker')).toHaveLength(1);
    expect((await loadRunRow(runId))?.error).toMatch(/TransientError/);
  });
});

async function loadRunRow(runId: string) {
  const pool = createPool(db.url);
  try {
    return await loadRun(pool, runId);
  } finally {
    await pool.end();
  }
}

describe('lease and fencing', () => {
  it('a second claim while the lease is live is refused; after a takeover the old holder cannot write', async () => {
    const pool = createPool(db.url);
    try {
      const thread = `thread-${crypto.randomUUID()}`;
      const a = await claimLease(pool, thread, 'A#1', 60_000);
      await expect(claimLease(pool, thread, 'B#2', 60_000)).rejects.toBeInstanceOf(LeaseHeldError);
      // A writes a checkpoint through its fenced pool: fine
      const saverA = new ReviewSaver(fencedPool(pool, a), {
        variant: 'hardened',
        writer: { worker: 'A', fencingToken: a.token },
      });
      const graph = buildGraph({
        variant: 'hardened',
        ports: fakePorts().ports,
        worker: 'A',
        steps: fakeSteps,
      }).compile({ checkpointer: saverA, interruptBefore: ['DISCOVER'] });
      const config = { configurable: { thread_id: thread }, durability: 'sync' as const };
      await graph.invoke(initialState('run-lease', parseReviewRequest(sampleRequest())), config);
      // A's lease expires and B takes over (token + 1)
      await pool.query(`UPDATE lg_leases SET expires_at = now() - interval '1 second' WHERE thread_id = $1`, [thread]);
      const b = await claimLease(pool, thread, 'B#2', 60_000);
      expect(b.token).toBe(a.token + 1);
      const before = (await pool.query(`SELECT count(*)::int AS n FROM checkpoints WHERE thread_id = $1`, [thread]))
        .rows[0].n;
      const err = await graph.invoke(null, config).catch((e) => e);
      expect(err).toBeInstanceOf(FencedOutError);
      expect(String(err.message)).toMatch(/B#2 claimed it since/);
      const after = (await pool.query(`SELECT count(*)::int AS n FROM checkpoints WHERE thread_id = $1`, [thread]))
        .rows[0].n;
      expect(after).toBe(before);
    } finally {
      await pool.end();
    }
  });

  it('hardened executeRun refuses a run whose lease another worker holds', async () => {
    const { runId, threadId } = await approvedRun('hardened');
    const pool = createPool(db.url);
    try {
      await claimLease(pool, threadId, 'someone-else#9', 60_000);
    } finally {
      await pool.end();
    }
    await expect(execute(runId)).rejects.toBeInstanceOf(LeaseHeldError);
  });
});

// Not concurrent: it ends PostgreSQL sessions left idle in a transaction, which another test's could be.
describe('a worker whose connection dies while another worker takes the run over', () => {
  // Found by the chaos campaign: frozen inside the outbox's send past the idle-in-transaction timeout
  // and its lease, a worker woke up to a dead connection and a new owner, and died as a crash (exit 1).
  it('leaves fenced out, in plain words, not with the connection error; the mail goes once', async () => {
    const { runId, threadId } = await approvedRun('hardened');
    const world = fakePorts();
    const send = world.ports.mailer.send;
    const admin = createPool(db.url);
    try {
      world.ports.mailer.send = async (mail, meta) => {
        const receipt = await send(mail, meta);
        // What a long freeze does meanwhile: PostgreSQL ends the open transaction's session, and
        // another worker claims the expired lease.
        await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
           WHERE datname = current_database() AND state = 'idle in transaction' AND query ILIKE '%SKIP LOCKED%'`,
        );
        await admin.query(
          `UPDATE lg_leases SET owner = 'B#2', fencing_token = fencing_token + 1, expires_at = now() + interval '1 minute' WHERE thread_id = $1`,
          [threadId],
        );
        return receipt;
      };
      const err = await execute(runId, world).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(FencedOutError);
      expect(String((err as Error).message)).toMatch(
        /B#2 claimed it since \(token 2\) while this worker's database connection was gone/,
      );
      expect(world.calls.filter((c) => c.kind === 'mail')).toHaveLength(1);
    } finally {
      await admin.end();
    }
  });
});

describe('state outlives code: a v1 checkpoint resumed by v2 code', () => {
  /** Runs the hardened/naive graph up to SAVE_PROGRESS of the first requirement, then stops like a crash would. */
  async function stopBeforeSaveProgress(variant: 'naive' | 'hardened') {
    const { runId, threadId } = await approvedRun(variant);
    const pool = createPool(db.url);
    try {
      const graph = buildGraph({ variant, ports: fakePorts().ports, worker: 'old', steps: fakeSteps }).compile({
        checkpointer: new PostgresSaver(pool),
        interruptBefore: ['SAVE_PROGRESS'],
      });
      const run = await loadRun(pool, runId);
      await pool.query(`UPDATE lg_runs SET status = 'running' WHERE run_id = $1`, [runId]);
      await graph.invoke(initialState(runId, parseReviewRequest(run!.request)), {
        configurable: { thread_id: threadId },
        durability: 'sync',
      });
    } finally {
      await pool.end();
    }
    await writeV1Checkpoint({ databaseUrl: db.url, runId });
    return { runId, threadId };
  }

  it('hardened migrates it (sitemap → pages) and finishes; the migrated pages are used by the next requirement', async () => {
    const { runId } = await stopBeforeSaveProgress('hardened');
    const record = await readCheckpointRows({ databaseUrl: db.url, runId });
    expect(record.checkpoints.at(-1)?.stateSchemaVersion).toBe(1);
    const world = fakePorts();
    const outcome = await execute(runId, world);
    expect(outcome.status).toBe('completed');
    expect(outcome.state?.schemaVersion).toBe(STATE_SCHEMA_VERSION);
    expect(outcome.state?.pages).toHaveLength(3);
    expect((outcome.state as unknown as Record<string, unknown>).sitemap).toBeUndefined();
    // the second requirement fetched all three pages found in the migrated `pages`
    expect(world.calls.filter((c) => c.kind === 'web' && c.meta.step === 'FETCH')).toHaveLength(3);
  });

  it('naive refuses it in plain words instead of running on half-read state', async () => {
    const { runId } = await stopBeforeSaveProgress('naive');
    const world = fakePorts();
    const err = await execute(runId, world).catch((e) => e);
    expect(err).toBeInstanceOf(CheckpointUnreadableError);
    expect(err.message).toMatch(new RegExp(`Run ${runId} cannot be resumed`));
    expect(err.message).toMatch(/schema version 1/);
    expect(world.calls).toHaveLength(0);
  });

  it('an unknown (newer) version is refused whole by hardened', async () => {
    const { runId, threadId } = await stopBeforeSaveProgress('hardened');
    const pool = createPool(db.url);
    try {
      // bump the v1 blob to a version nobody knows
      const saver = new PostgresSaver(pool);
      const tuple = await saver.getTuple({ configurable: { thread_id: threadId } });
      const [type, bytes] = await saver.serde.dumpsTyped(99);
      await pool.query(
        `UPDATE checkpoint_blobs SET type = $3, blob = $4 WHERE thread_id = $1 AND channel = 'schemaVersion' AND version = $2`,
        [threadId, String(tuple!.checkpoint.channel_versions.schemaVersion), type, bytes],
      );
    } finally {
      await pool.end();
    }
    const err = await execute(runId).catch((e) => e);
    expect(err).toBeInstanceOf(CheckpointUnreadableError);
    expect(err.message).toMatch(/schemaVersion 99/);
  });
});

describe('a step whose writes were saved but whose checkpoint was lost (async durability)', () => {
  /** A saver that, like an async put cut short by a kill, stores pending writes but loses every checkpoint after the first `keep`. */
  class LossySaver extends ReviewSaver {
    private puts = 0;
    constructor(
      pool: ReturnType<typeof createPool>,
      private readonly keep: number,
    ) {
      super(pool, { variant: 'hardened' });
    }
    override async put(...args: Parameters<ReviewSaver['put']>) {
      if (++this.puts <= this.keep) return super.put(...args);
      const [config, checkpoint] = args;
      return { configurable: { ...config.configurable, checkpoint_id: checkpoint.id } };
    }
  }

  it.each(['naive', 'hardened'] as const)(
    'is resumed from the pending writes, not mistaken for a finished thread (%s)',
    async (variant) => {
      const { runId, threadId } = await approvedRun(variant);
      const pool = createPool(db.url);
      try {
        const graph = buildGraph({ variant, ports: fakePorts().ports, worker: 'old', steps: fakeSteps }).compile({
          checkpointer: new LossySaver(pool, 2),
        });
        await pool.query(`UPDATE lg_runs SET status = 'running' WHERE run_id = $1`, [runId]);
        const run = await loadRun(pool, runId);
        await graph
          .invoke(initialState(runId, parseReviewRequest(run!.request)), {
            configurable: { thread_id: threadId },
            durability: 'sync',
          })
          .catch(() => {});
      } finally {
        await pool.end();
      }
      const record = await readCheckpointRows({ databaseUrl: db.url, runId });
      expect(record.checkpoints.map((c) => c.step)).toEqual([-1, 0]);
      // VALIDATE finished: its writes hang on the step-0 checkpoint, whose `next` LangGraph reports as []
      expect(
        record.pendingWrites.filter(
          (w) => w.checkpointId === record.checkpoints[1]!.checkpointId && w.node === 'VALIDATE',
        ).length,
      ).toBeGreaterThan(0);
      const world = fakePorts();
      const outcome = await execute(runId, world);
      expect(outcome.status).toBe('completed');
      expect(Object.keys(outcome.state!.verdicts).sort()).toEqual(['dpa', 'soc2']);
      // VALIDATE was not run again (its writes were reused); DISCOVER onwards ran
      expect(world.calls.filter((c) => c.meta.step === 'DISCOVER')).toHaveLength(1);
    },
  );
});

describe('nothing to resume', () => {
  // Found by the chaos campaign (pnpm chaos): a worker killed after marking the run running and
  // before LangGraph's first checkpoint write left a hardened run that every later worker refused.
  it('hardened: a run that died before its first checkpoint starts from its request and completes', async () => {
    const { runId } = await approvedRun('hardened');
    const pool = createPool(db.url);
    await pool.query(`UPDATE lg_runs SET status = 'running', started_at = now() WHERE run_id = $1`, [runId]);
    await pool.end();
    expect((await readCheckpointRows({ databaseUrl: db.url, runId })).checkpoints).toHaveLength(0);
    const world = fakePorts();
    const outcome = await execute(runId, world);
    expect(outcome.status).toBe('completed');
    expect(world.calls.filter((c) => c.kind === 'mail')).toHaveLength(1);
  });

  it('naive: the same run is refused, in plain words (nothing says what ran before the kill)', async () => {
    const { runId } = await approvedRun('naive', { durability: 'async' });
    const pool = createPool(db.url);
    await pool.query(`UPDATE lg_runs SET status = 'running', started_at = now() WHERE run_id = $1`, [runId]);
    await pool.end();
    const err = await execute(runId).catch((e) => e);
    expect(err).toBeInstanceOf(NothingToResumeError);
    expect(err.message).toMatch(/--restart/);
  });

  it('a MemorySaver run whose process is gone cannot be resumed, and the error says why in plain words', async () => {
    const { runId } = await approvedRun('naive', { checkpointer: 'memory' });
    const pool = createPool(db.url);
    await pool.query(`UPDATE lg_runs SET status = 'running', started_at = now() WHERE run_id = $1`, [runId]);
    await pool.end();
    const err = await execute(runId).catch((e) => e);
    expect(err).toBeInstanceOf(NothingToResumeError);
    expect(err.message).toMatch(new RegExp(`Run ${runId} cannot be resumed`));
    expect(err.message).toMatch(/MemorySaver/);
    expect(err.message).toMatch(/--restart/);
    expect(err.message).not.toMatch(/thread_id|checkpoint_ns|EmptyInputError/);
    // --restart starts over from the request
    const outcome = await execute(runId, fakePorts(), { restart: true });
    expect(outcome.status).toBe('completed');
  });
});

describe('retention', () => {
  it('deletes the checkpoints of old finished runs only, never a live one', async () => {
    const finishedOld = await approvedRun('hardened');
    const finishedNew = await approvedRun('hardened');
    const live = await createRun({ databaseUrl: db.url, request: sampleRequest(), variant: 'hardened' });
    await execute(finishedOld.runId);
    await execute(finishedNew.runId);
    // the live run stops at the approval gate: no decision recorded
    const pool = createPool(db.url);
    try {
      const stop = new AbortController();
      const waiting = executeRun({
        pool,
        runId: live.runId,
        worker: 'T',
        ports: fakePorts().ports,
        leaseTtlMs: 5_000,
        drainOutbox: true,
        steps: fakeSteps,
        approvalPollMs: 50,
      });
      for (;;) {
        const view = await getRun({ databaseUrl: db.url, runId: live.runId });
        if (view.status === 'awaiting-approval') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const hour = 3_600_000;
      await pool.query(`UPDATE lg_runs SET finished_at = now() - interval '2 hours' WHERE run_id = $1`, [
        finishedOld.runId,
      ]);
      await pool.query(`UPDATE lg_runs SET created_at = now() - interval '3 hours' WHERE run_id = $1`, [live.runId]);
      const { deletedThreads, runIds } = await runRetention({ databaseUrl: db.url, olderThanMs: hour });
      expect(runIds).toContain(finishedOld.runId);
      expect(runIds).not.toContain(finishedNew.runId);
      expect(runIds).not.toContain(live.runId);
      expect(deletedThreads).toBe(runIds.length);
      expect((await readCheckpointRows({ databaseUrl: db.url, runId: finishedOld.runId })).checkpoints).toHaveLength(0);
      expect(
        (await readCheckpointRows({ databaseUrl: db.url, runId: finishedNew.runId })).checkpoints.length,
      ).toBeGreaterThan(0);
      expect((await readCheckpointRows({ databaseUrl: db.url, runId: live.runId })).checkpoints.length).toBeGreaterThan(
        0,
      );
      // the live run still finishes after retention ran
      await approveRun({ databaseUrl: db.url, runId: live.runId, approved: true, by: 'qa' });
      expect((await waiting).status).toBe('completed');
      stop.abort();
      // a purged run explains itself
      const after = await execute(finishedOld.runId);
      expect(after.status).toBe('completed');
      expect((await getRun({ databaseUrl: db.url, runId: finishedOld.runId })).state).toBeNull();
    } finally {
      await pool.end();
    }
  });
});

export type { ReviewState };
