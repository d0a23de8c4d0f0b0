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
): Promise<Summary> {
  const run = async (n: number, i: number) => {
    const t = performance.now();
    await client.workflow.execute('noopChain', {
      taskQueue,
      workflowId: `bench-noop-${process.pid}-${n}-${i}-${Date.now()}`,
      args: [n],
    });
    return (performance.now() - t) * 1000;
  };
  await run(length, -1); // warm-up: the worker's first workflow task pays for loading the bundle
  const per: number[] = [];
  for (let i = 0; i < chains; i++) {
    const empty = await run(0, i);
    const chain = await run(length, i);
    per.push(Math.max(0, chain - empty) / length);
  }
  return summarize(per)!;
}
