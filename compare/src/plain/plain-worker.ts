import { createHttpPorts, parseCli, UsageError } from '@vendor-review/worker-io';
import { runPlain, type Decision, type PlainRunOptions } from '@vendor-review/pipeline';
import pg from 'pg';
import { finishJob, loadJob, setJobStatus, takeJob } from './jobs.ts';

const USAGE = `usage: plain worker --run <runId>
  runs one plain job from its request to the end (DATABASE_URL, WORLD_URL, WORKER_NAME)`;

/** What a tracer or an instrument may lay over the runner: its own hook at every step's beginning. */
export type PlainWorkerOptions = Pick<PlainRunOptions, 'beforeStep'>;

/**
 * The plain runtime's worker: it runs the job from its request with the plain runner, in one
 * process, keeping nothing durable on the way; asked for approval, it waits for a decision in the
 * job table.
 */
export async function plainWorker(options: PlainWorkerOptions = {}): Promise<number> {
  const args = parseCli({ usage: USAGE, options: { run: { type: 'string' } } });
  if (!args.values.run) throw new UsageError('--run <runId> is required');
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new UsageError('DATABASE_URL is not set');
  const worker = process.env.WORKER_NAME ?? 'A';
  const runId = args.values.run;
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  try {
    const job = await loadJob(pool, runId);
    if (!job) throw new UsageError(`no plain job ${runId}`);
    process.stdout.write('LOADED\n'); // connected: the harness's profile reads its start's cost here
    if (job.status === 'completed' || job.status === 'failed') return 0;
    await takeJob(pool, runId, worker);
    const approve = async (): Promise<Decision> => {
      await setJobStatus(pool, runId, 'awaiting-approval');
      for (;;) {
        const decision = (await loadJob(pool, runId))?.approval;
        if (decision) {
          await setJobStatus(pool, runId, 'running');
          return decision;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const { state, failed } = await runPlain(job.request, createHttpPorts(), {
      runId,
      worker,
      keys: job.variant === 'hardened',
      approve,
      ...options,
    });
    await finishJob(pool, runId, state, failed);
    return 0;
  } finally {
    await pool.end();
  }
}
