import type { Callbacks } from '@langchain/core/callbacks/manager';
import { parseCli, UsageError, traceSteps, workerLine, workerPorts } from '@vendor-review/worker-io';
import { DrainedError, WorkerDrain } from './drain.ts';
import { CheckpointUnreadableError, NothingToResumeError, RunNotFoundError } from './errors.ts';
import { executeRun } from './execute-run.ts';
import { DOMAIN_STEPS } from './nodes.ts';
import { EXIT } from './exit-codes.ts';
import { FencedOutError, LeaseHeldError } from './lease.ts';
import { LG_OUTBOX } from './outbox.ts';
import { LG_OUTBOX_SCOPE } from './sql.ts';
import { createPool } from './pool.ts';
import { nextRunNeedingOwner } from './claims.ts';
import type { SaverFactory } from './checkpointer.ts';

export const WORKER_USAGE = `usage: worker.ts (--run <runId> [--run <runId>…] | --claim | --outbox) [options]
  --run ID        execute or resume that run until it completes or fails (repeat for several, run concurrently)
  --claim         keep taking runs that need an owner (hardened: no live lease; naive: still pending)
  --outbox        deliver the outbox (a delivery worker); with --run/--claim: also every run's rows
  --restart       start a run over from its request when nothing durable is left
  --no-outbox     leave delivery to a separate --outbox worker
  --until-idle    with --claim or --outbox: exit when there is nothing left to do
  --worker NAME   the label in the ledger and the checkpoints (default: WORKER_NAME, else A)
Environment: DATABASE_URL, WORLD_URL, WORKER_NAME, LEASE_TTL_MS, APPROVAL_POLL_MS, DATABASE_WAIT_MS,
TRACE_STEPS (1: print every step as it starts and ends, and every call it makes).`;

/**
 * What LangGraph lets a deployment add to the worker without touching its code: callbacks on every
 * run's invoke, and the saver every run is checkpointed by (compile({ checkpointer })).
 */
export interface WorkerExtensions {
  callbacks?: Callbacks;
  newSaver?: SaverFactory;
}

/** The worker's command line and environment, read as the worker reads them. */
export function parseWorkerArgs(argv: string[] = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env) {
  const { values: args } = parseCli(
    {
      usage: WORKER_USAGE,
      options: {
        run: { type: 'string', multiple: true },
        claim: { type: 'boolean', default: false },
        outbox: { type: 'boolean', default: false },
        'no-outbox': { type: 'boolean', default: false },
        restart: { type: 'boolean', default: false },
        'until-idle': { type: 'boolean', default: false },
        worker: { type: 'string' },
      },
    },
    argv,
  );
  const runIds = args.run ?? [];
  if (runIds.length === 0 && !args.claim && !args.outbox)
    throw new UsageError('give --run <runId>, --claim or --outbox');
  const databaseUrl = env.DATABASE_URL;
  if (!databaseUrl)
    throw new UsageError(
      'DATABASE_URL is not set: the worker needs the PostgreSQL that holds the runs and checkpoints',
    );
  return {
    args,
    runIds,
    databaseUrl,
    worker: args.worker ?? env.WORKER_NAME ?? 'A',
    leaseTtlMs: Number(env.LEASE_TTL_MS ?? 15_000),
    approvalPollMs: Number(env.APPROVAL_POLL_MS ?? 250),
  };
}

/**
 * The worker: runs the runs of its command line, or claims runs, or delivers the outbox, with
 * `extensions` on every run. Returns the exit code (exit-codes.ts).
 */
export async function runWorker(extensions: WorkerExtensions = {}, argv?: string[]): Promise<number> {
  const { args, runIds, databaseUrl, worker, leaseTtlMs, approvalPollMs } = parseWorkerArgs(argv);
  const log = (line: string) => workerLine(worker, line);
  const { ports, trace } = workerPorts(worker);
  const steps = trace ? traceSteps(DOMAIN_STEPS, trace) : undefined;
  const pool = createPool(databaseUrl);
  const stop = new AbortController();
  const drain = new WorkerDrain();
  process.once('SIGTERM', () => {
    stop.abort(new Error('SIGTERM'));
    if (drain.request('SIGTERM') || runIds.length === 0) return;
    // A --run worker with nothing of ours to drain (naive runs) dies of the signal, as Node does.
    process.kill(process.pid, 'SIGTERM');
  });
  process.once('SIGINT', () => stop.abort(new Error('SIGINT')));

  /** Every LangGraph row still to send, until none is left (a delivery worker's job). */
  const deliverAll = () =>
    LG_OUTBOX.drain({ pool, ports, worker, scope: LG_OUTBOX_SCOPE, untilEmpty: true, signal: stop.signal, log });

  const runOne = async (runId: string, restart: boolean) => {
    const rlog = (line: string) => log(`run ${runId}: ${line}`);
    const outcome = await executeRun({
      pool,
      runId,
      worker,
      ports,
      leaseTtlMs,
      approvalPollMs,
      restart,
      drainOutbox: !args['no-outbox'],
      drain,
      log: rlog,
      ...(steps ? { steps } : {}),
      ...extensions,
    });
    return outcome;
  };

  try {
    // Loaded and connected: what a worker's start costs ends here (the bench reads this line).
    await pool.query('select 1');
    log('LOADED');
    if (runIds.length > 0) {
      // Every run is reported on its own; the exit code is the first failure's (0 when all are done).
      const results = await Promise.allSettled(runIds.map((id) => runOne(id, args.restart)));
      let code: number = EXIT.done;
      results.forEach((r, i) => {
        if (r.status === 'fulfilled') return;
        const { code: c, message } = explain(r.reason, runIds[i]!, worker);
        process.stderr.write(`${message}\n`);
        if (code === EXIT.done) code = c;
      });
      if (code === EXIT.done && args.outbox) await deliverAll();
      return code;
    }
    if (args.claim) {
      const gaveUp: string[] = []; // runs this worker could not move; another worker or a person must
      while (!stop.signal.aborted) {
        const runId = await nextRunNeedingOwner(pool, worker, gaveUp);
        if (runId) {
          try {
            await runOne(runId, false);
          } catch (err) {
            // One run's trouble is reported and the loop goes on to the next run.
            if (err instanceof LeaseHeldError) continue;
            gaveUp.push(runId);
            log(explain(err, runId, worker).message);
          }
          continue;
        }
        if (args.outbox) await deliverAll();
        if (args['until-idle']) break;
        await new Promise((r) => setTimeout(r, 500));
      }
      return EXIT.done;
    }
    const drained = await LG_OUTBOX.drain({
      pool,
      ports,
      worker,
      scope: LG_OUTBOX_SCOPE,
      untilEmpty: args['until-idle'],
      signal: stop.signal,
      log,
    });
    log(`outbox: ${drained.sent} sent, ${drained.retry} to retry, ${drained.dead} dead`);
    return EXIT.done;
  } catch (err) {
    const { code, message } = explain(err, undefined, worker);
    process.stderr.write(`${message}\n`);
    return code;
  } finally {
    await pool.end().catch(() => {});
  }
}

/** The exit code and the words for a person, per kind of failure. LangGraph's own text is never the message. */
function explain(err: unknown, runId: string | undefined, worker: string): { code: number; message: string } {
  // Drained is a clean leave, not a failure: the run waits, durable, for whoever comes next.
  if (err instanceof DrainedError)
    return {
      code: EXIT.done,
      message: `Run ${runId}: this worker was ${err.message} and drained: the step in flight finished and is checkpointed, the lease is released; the next worker resumes the run from there.`,
    };
  if (err instanceof RunNotFoundError) return { code: EXIT.usage, message: err.message };
  if (err instanceof NothingToResumeError) return { code: EXIT.nothingToResume, message: err.message };
  if (err instanceof CheckpointUnreadableError) return { code: EXIT.checkpointUnreadable, message: err.message };
  if (err instanceof LeaseHeldError) {
    return {
      code: EXIT.leaseHeld,
      message: `Run ${runId} is being run by another worker (${err.holder}, lease valid until ${err.expiresAt.toISOString()}); this worker leaves it alone. Start it again after that time if the other worker has died.`,
    };
  }
  if (err instanceof FencedOutError || (err as Error)?.name === 'FencedOutError') {
    return {
      code: EXIT.fencedOut,
      message: `Run ${runId}: this worker stopped because ${(err as Error).message}. Another worker owns the run now; nothing this worker did after losing the lease was saved.`,
    };
  }
  return {
    code: EXIT.unexpected,
    message: `worker ${worker}: unexpected error${runId ? ` on run ${runId}` : ''}: ${(err as Error)?.stack ?? String(err)}`,
  };
}
