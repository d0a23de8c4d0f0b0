/**
 * The plain worker as the harness starts it: crash points laid over it from outside. The calls are
 * watched at the process's HTTP client, the steps at the runner's own beforeStep hook, and the wait
 * for a person in the job table the worker itself keeps.
 */
import { installCrashPoints, stepBegins, watchForWait } from '@vendor-review/instrument';
import { runCli } from '@vendor-review/worker-io';
import pg from 'pg';
import { plainWorker } from '../plain/plain-worker.ts';

installCrashPoints();

runCli('plain worker', async () => {
  const runId = process.argv[process.argv.indexOf('--run') + 1];
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
  pool.on('error', () => {});
  const stopWatching = watchForWait(async () => {
    const { rows } = await pool.query(
      `SELECT run_id FROM plain_jobs WHERE run_id = $1 AND status = 'awaiting-approval'`,
      [runId],
    );
    return rows.map((r: { run_id: string }) => r.run_id);
  });
  try {
    return await plainWorker({ beforeStep: (step) => stepBegins(step) });
  } finally {
    stopWatching();
    await pool.end();
  }
});
