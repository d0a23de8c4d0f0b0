import type { Client } from '@temporalio/client';
import pg from 'pg';
import { summarize, type Summary } from './stats.ts';

/**
 * The two units every overhead is stated in, measured in the same run on the same machine:
 * one PostgreSQL commit of a small row (an INSERT in its own transaction: a WAL flush, what a
 * checkpoint in `sync` cannot avoid), a bare round trip (SELECT 1) beside it, and one Temporal
 * no-op activity (schedule, poll, complete, and the workflow task that schedules the next one).
 */
export interface Units {
  pgCommitUs: Summary;
  pgRoundTripUs: Summary;
  temporalActivityUs: Summary | null;
  /** Part of that activity: a workflow task waiting between scheduled and started, in the server's own event times. */
  temporalTaskDispatchUs: Summary | null;
}

const PROBE = 'bench_commit_probe';

export async function measurePg(
  databaseUrl: string,
  samples: number,
): Promise<Pick<Units, 'pgCommitUs' | 'pgRoundTripUs'>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`CREATE TABLE IF NOT EXISTS ${PROBE} (id bigserial PRIMARY KEY, note text NOT NULL)`);
    const commits: number[] = [];
    const trips: number[] = [];
    const warmup = Math.min(20, samples);
    for (let i = 0; i < samples + warmup; i++) {
      // Interleaved, so a noisy moment lands on both.
      let t = performance.now();
      await client.query(`INSERT INTO ${PROBE} (note) VALUES ($1)`, [`probe ${i}`]);
      const commit = (performance.now() - t) * 1000;
      t = performance.now();
      await client.query('SELECT 1');
      const trip = (performance.now() - t) * 1000;
      if (i >= warmup) {
        commits.push(commit);
        trips.push(trip);
      }
    }
    return { pgCommitUs: summarize(commits)!, pgRoundTripUs: summarize(trips)! };
  } finally {
    await client.query(`DROP TABLE IF EXISTS ${PROBE}`).catch(() => undefined);
    await client.end();
  }
}

/**
 * A chain of `length` no-op activities against an empty workflow, in turn: (chain − empty) ÷
 * length per pair, so starting and finishing a workflow is not counted as activity time.
 */
export async function measureTemporalActivity(
  client: Client,
  taskQueue: string,
  chains: number,
  length: number,
): Promise<Pick<Units, 'temporalActivityUs' | 'temporalTaskDispatchUs'>> {
  const dispatch: number[] = [];
  const run = async (n: number, i: number) => {
    const workflowId = `bench-noop-${process.pid}-${n}-${i}-${Date.now()}`;
    const t = performance.now();
    await client.workflow.execute('noopChain', { taskQueue, workflowId, args: [n] });
    const us = (performance.now() - t) * 1000;
    if (n > 0 && i >= 0) dispatch.push(...(await taskWaits(client, workflowId)));
    return us;
  };
  await run(length, -1); // warm-up: the worker's first workflow task pays for loading the bundle
  const per: number[] = [];
  for (let i = 0; i < chains; i++) {
    const empty = await run(0, i);
    const chain = await run(length, i);
    per.push(Math.max(0, chain - empty) / length);
  }
  return { temporalActivityUs: summarize(per)!, temporalTaskDispatchUs: summarize(dispatch) };
}

/** Scheduled → started of every workflow task of one run, µs, from the history's event times. */
async function taskWaits(client: Client, workflowId: string): Promise<number[]> {
  const { events } = await client.workflow.getHandle(workflowId).fetchHistory();
  const at = (e: NonNullable<typeof events>[number]) =>
    Number(e.eventTime?.seconds ?? 0) * 1e6 + Math.round((e.eventTime?.nanos ?? 0) / 1000);
  const out: number[] = [];
  let scheduled: number | null = null;
  for (const e of events ?? []) {
    if (e.workflowTaskScheduledEventAttributes) scheduled = at(e);
    else if (e.workflowTaskStartedEventAttributes && scheduled !== null) {
      out.push(at(e) - scheduled);
      scheduled = null;
    }
  }
  return out;
}
