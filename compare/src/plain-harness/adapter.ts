import { fileURLToPath } from 'node:url';
import { newRunId, parseReviewRequest } from '@vendor-review/pipeline';
import {
  type DurableRecord,
  type RunConfig,
  type RunHandle,
  type RuntimeAdapter,
  type RuntimeInfo,
} from '@vendor-review/conformance';
import pg from 'pg';
import { insertJob, loadJob, recordDecision, setupPlainJobs } from '../plain/jobs.ts';

/** The worker with crash points laid over it (worker.ts beside this file), as every cell starts it. */
export const PLAIN_WORKER_ENTRY = fileURLToPath(new URL('./worker.ts', import.meta.url));

/**
 * The reference row every reader needs: the same pipeline with no durable runtime at all. A crash
 * means the job is run again from its request by the next worker; hardened sends idempotency keys
 * derived from the run (so the receivers collapse the resent note and mail), naive sends none.
 */
export const PLAIN: RuntimeInfo = {
  name: 'plain',
  label: 'plain',
  title: 'Plain runner (no durability)',
  colour: '#71717a',
  configurations: [
    { variant: 'naive', durability: null },
    { variant: 'hardened', durability: null },
  ],
  // The reference row of the crash table; the production hazards are about what a runtime adds.
  suites: ['crash'],
  approverDeviations: [
    {
      variant: 'naive',
      killedWhileWaiting: true,
      inbox: 2,
      why: 'The job starts again from its request and tells the approver again, with no key to recognise it by.',
    },
    {
      variant: 'hardened',
      killedWhileWaiting: true,
      inbox: 1,
      why: 'The job starts again from its request and tells the approver again; the key derived from the run lets the inbox keep one request.',
    },
  ],
  crashDeviations: [
    {
      points: ['mid-commit'],
      expected: { kind: 'not-reached' },
      why: 'The plain runner commits nothing: there is no commit to crash inside.',
    },
    {
      expected: { kind: 'restart' },
      why: 'The plain runner keeps nothing durable: the job is started again from its request, and everything before the crash runs again.',
    },
  ],
};

export async function createPlainAdapter(o: {
  databaseUrl: string;
  worldUrl: string;
  workerEntry?: string;
}): Promise<RuntimeAdapter> {
  const pool = new pg.Pool({ connectionString: o.databaseUrl, max: 3 });
  pool.on('error', () => {});
  await setupPlainJobs(pool);
  const nothingDurable = (): DurableRecord => ({ runtime: 'plain', kind: 'none', marks: [] });
  return {
    ...PLAIN,
    workerExitsWhenDone: true,
    isRetryableExit: () => false,
    async startRun(request, config: RunConfig, opts?: { runId?: string }): Promise<RunHandle> {
      parseReviewRequest(request);
      const runId = opts?.runId ?? newRunId(`plain-${config.variant === 'naive' ? 'naive' : 'keys'}`);
      await insertJob(pool, { runId, variant: config.variant, request });
      return { runId, config, durability: null, runtimeIds: {}, link: null };
    },
    workerSpec: (h, { crashPlan }) => ({
      entry: o.workerEntry ?? PLAIN_WORKER_ENTRY,
      args: ['--run', h.runId],
      env: { DATABASE_URL: o.databaseUrl, WORLD_URL: o.worldUrl, CRASH_PLAN: crashPlan ?? undefined },
    }),
    async status(h) {
      const job = await loadJob(pool, h.runId);
      return job
        ? { status: job.status, state: null }
        : { status: 'not-found', state: null, reason: `no plain job ${h.runId}` };
    },
    async inspect(h) {
      const job = await loadJob(pool, h.runId);
      return job ? { status: job.status, state: job.finalState } : { status: 'not-found', state: null };
    },
    approve: (h, d) => recordDecision(pool, h.runId, d),
    durableRecord: async () => nothingDurable(),
    close: () => pool.end(),
  };
}
