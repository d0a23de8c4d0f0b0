/**
 * What only DBOS has, measured (issue 23, point 3): who recovers a dead worker's run. DBOS
 * re-enqueues a PENDING workflow only in a process launched with the executor id and application
 * version it was recorded under; anything else needs an operator. Real worker processes, SIGKILL
 * and SIGSTOP, real PostgreSQL, the real world. Figures go to stdout (MEASUREMENTS.md has them).
 */
import { DBOSClient } from '@dbos-inc/dbos-sdk';
import type { RunConfig, RunHandle } from '@vendor-review/conformance';
import { cellRequest, runtimeUnderTest, type RuntimeUnderTest } from '@vendor-review/conformance';
import { WorkerProcess } from '@vendor-review/testbed';
import { worldClient, type LedgerEntry } from '@vendor-review/world';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executorIdFor, hardenedVersionFor } from '../harness/identity.ts';
import { VERSION_CHECK, VERSION_CHECK_EXIT } from '../harness/version-check.ts';
import { runtime } from '../harness/module.ts';

let db: RuntimeUnderTest;
let pool: pg.Pool;
let client: DBOSClient;
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  db = await runtimeUnderTest(runtime, { name: 'recovery' });
  pool = new pg.Pool({ connectionString: db.databaseUrl, max: 2 });
  client = await DBOSClient.create({ systemDatabaseUrl: db.databaseUrl });
});
afterAll(async () => {
  await Promise.all(workers.map((w) => w.kill().catch(() => undefined)));
  await client?.destroy();
  await pool?.end();
  await db?.stop();
});

const naive: RunConfig = { variant: 'naive', durability: null };
const hardened: RunConfig = { variant: 'hardened', durability: null };

function spawn(h: RunHandle, name: string, o: { plan?: string; env?: Record<string, string> } = {}): WorkerProcess {
  const spec = db.adapter.workerSpec(h, { name, crashPlan: o.plan ?? null });
  const w = new WorkerProcess(name, { ...spec, env: { ...spec.env, ...o.env } });
  workers.push(w);
  return w;
}

async function until<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs = 90_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const ledger = async (runId: string): Promise<LedgerEntry[]> =>
  (await worldClient(db.world.url).ledger({ runId })).filter((e) => e.runId === runId);

async function row(runId: string) {
  const r = (
    await pool.query(
      `SELECT status, executor_id, application_version, recovery_attempts FROM dbos.workflow_status WHERE workflow_uuid = $1`,
      [runId],
    )
  ).rows[0];
  return { status: r.status as string, executor: r.executor_id as string, version: r.application_version as string };
}

/** Worker A runs until its crash point kills it (approving on the way when asked). */
async function crashA(h: RunHandle, point: string): Promise<void> {
  const a = spawn(h, 'A', { plan: point });
  while (a.alive) {
    if ((await db.adapter.status(h)).status === 'awaiting-approval')
      await db.adapter.approve(h, { approved: true, by: 'test' });
    await Promise.race([a.exited, new Promise((r) => setTimeout(r, 100))]);
  }
  const life = await a.exited;
  expect([life.crash?.point, life.signal]).toEqual([point.split(':')[0], 'SIGKILL']);
}

/** Approves when asked and waits for a terminal status. */
async function toTheEnd(h: RunHandle, timeoutMs = 120_000): Promise<string> {
  return until(
    'a terminal status',
    async () => {
      const { status } = await db.adapter.status(h);
      if (status === 'awaiting-approval') await db.adapter.approve(h, { approved: true, by: 'test' });
      return status === 'completed' || status === 'failed' ? status : null;
    },
    timeoutMs,
  );
}

const firstBy = async (runId: string, worker: string) =>
  (await ledger(runId)).find((e) => e.worker === worker)?.at ?? null;

const repeatedOps = (entries: LedgerEntry[]) => {
  const seen = new Map<string, number>();
  for (const e of entries) seen.set(e.opKey, (seen.get(e.opKey) ?? 0) + 1);
  return [...seen].filter(([, n]) => n > 1).map(([k]) => k);
};

describe('DBOS recovery: who picks up a dead worker’s run', () => {
  it('a replacement under the same executor id and version recovers it on launch, repeating nothing after a boundary', async () => {
    const h = await db.adapter.startRun(cellRequest(db.world.url), naive);
    await crashA(h, 'boundary');
    const b = spawn(h, 'B');
    await b.waitForLine(/READY/);
    const ready = b.life.readyAt!;
    const first = await until('B’s first request', () => firstBy(h.runId, 'B'));
    expect(await toTheEnd(h)).toBe('completed');
    expect(repeatedOps(await ledger(h.runId))).toEqual([]);
    console.log(
      `MEASURED same identity: B spawned → READY (DBOS launched, run re-enqueued) ${ready - b.life.startedAt} ms; READY → B's first request ${first - ready} ms`,
    );
  });

  it('a replacement under another executor id does not recover it; the operator’s resumeWorkflow does', async () => {
    const h = await db.adapter.startRun(cellRequest(db.world.url), naive);
    await crashA(h, 'boundary');
    const b = spawn(h, 'B', { env: { DBOS_EXECUTOR_ID: 'another-machine' } });
    await b.waitForLine(/READY/);
    // Still PENDING under the dead executor: nothing re-enqueues it, so no dequeuer can take it.
    expect(await row(h.runId)).toMatchObject({ status: 'PENDING', executor: executorIdFor(h.runId) });
    expect((await ledger(h.runId)).filter((e) => e.worker === 'B')).toEqual([]);
    const resumedAt = Date.now();
    await client.resumeWorkflow(h.runId);
    const first = await until('B’s first request', () => firstBy(h.runId, 'B'));
    expect(await toTheEnd(h)).toBe('completed');
    expect((await row(h.runId)).executor).toBe('another-machine');
    console.log(`MEASURED another identity: resumeWorkflow → B's first request ${first - resumedAt} ms`);
  });

  it('a replacement of another application version does not recover it; one of the recorded version does', async () => {
    const h = await db.adapter.startRun(cellRequest(db.world.url), hardened);
    await crashA(h, 'boundary');
    const b = spawn(h, 'B', { env: { DBOS_APP_VERSION: hardenedVersionFor(h.runId, 2) } });
    await b.waitForLine(/READY/);
    expect(await row(h.runId)).toMatchObject({ status: 'PENDING', version: hardenedVersionFor(h.runId) });
    // Hardened's version check: B says why it does not go on, and leaves without a request.
    const bLife = await b.exited;
    expect(bLife.exitCode).toBe(VERSION_CHECK_EXIT);
    expect(bLife.logTail).toMatch(VERSION_CHECK);
    expect(await firstBy(h.runId, 'B')).toBeNull();
    const c = spawn(h, 'C');
    await c.waitForLine(/READY/);
    await until('C’s first request', () => firstBy(h.runId, 'C'));
    expect(await toTheEnd(h)).toBe('completed');
    expect(repeatedOps(await ledger(h.runId))).toEqual([]);
  });

  it('two replacements launched at once under the same identity: one runs it, nothing repeats', async () => {
    const h = await db.adapter.startRun(cellRequest(db.world.url), hardened);
    await crashA(h, 'boundary');
    const [b1, b2] = [spawn(h, 'B1'), spawn(h, 'B2')];
    expect(await toTheEnd(h)).toBe('completed');
    const after = (await ledger(h.runId)).filter((e) => e.worker !== 'A');
    expect(repeatedOps(await ledger(h.runId))).toEqual([]);
    const by = new Set(after.map((e) => e.worker));
    expect(by.size).toBe(1);
    console.log(`MEASURED two replacements: the run went on in ${[...by].join(', ')} only`);
    await Promise.all([b1.exited, b2.exited].map((p) => Promise.race([p, new Promise((r) => setTimeout(r, 5000))])));
  });

  it('a worker frozen past its replacement (same identity) wakes up fenced: its late step is refused, the effect is collapsed', async () => {
    const h = await db.adapter.startRun(cellRequest(db.world.url), hardened);
    const a = spawn(h, 'A', { plan: 'after-progress:stop' });
    await a.waitForStop();
    // B's launch re-enqueues the run: DBOS cannot tell a frozen executor from a dead one of the same id.
    spawn(h, 'B');
    await until(
      'B past the frozen step',
      async () => (await db.adapter.status(h)).status === 'awaiting-approval',
      120_000,
    );
    const wokeAt = Date.now();
    a.signal('SIGCONT');
    // A's step returns and DBOS refuses to record it: the run's owner token is B's now.
    await a.waitForLine(/no longer owned by this execution/);
    expect(await toTheEnd(h)).toBe('completed');
    const aLife = await a.exited; // A waits for the owner's outcome, then leaves
    const entries = await ledger(h.runId);
    const aAfterWake = entries.filter((e) => e.worker === 'A' && e.at >= wokeAt);
    expect(aAfterWake.map((e) => e.opKey)).toEqual([]);
    // A's note before the freeze, B's again with the same key: the tracker stored one.
    const notes = entries.filter((e) => e.kind === 'tracker');
    const stored = notes.filter((e) => e.outcome === 'ok').map((e) => e.opKey);
    expect(new Set(stored).size).toBe(stored.length);
    expect(notes.some((e) => e.outcome === 'deduplicated' && e.worker === 'B')).toBe(true);
    expect(entries.filter((e) => e.kind === 'mail' && e.outcome === 'ok')).toHaveLength(1);
    console.log(
      `MEASURED zombie: A after SIGCONT made ${aAfterWake.length} request(s); exited ${aLife.exitedAt! - wokeAt} ms after SIGCONT (code ${aLife.exitCode}), once the run had ended`,
    );
  });
});
