/**
 * The LangGraph worker process, as a team deploys it (run-worker.ts is what it runs):
 *
 *   node --import tsx src/worker.ts --run <runId>     execute or resume that run until it completes or fails
 *                                                      (repeat --run to take several runs in one process, concurrently)
 *   node --import tsx src/worker.ts --claim           keep claiming runs that need an owner and run them
 *   node --import tsx src/worker.ts --outbox          only deliver the outbox (a separate delivery worker)
 *
 * Options: --restart (start a run over from its request when nothing durable is left),
 * --no-outbox (with --run/--claim: leave delivery to a separate --outbox worker; by default a
 * hardened run's own worker delivers its outbox rows after DELIVER), --until-idle (with --claim or
 * --outbox: exit when there is nothing left to do), --worker <name>.
 * Environment: DATABASE_URL, WORLD_URL, WORKER_NAME, LEASE_TTL_MS, APPROVAL_POLL_MS, DATABASE_WAIT_MS,
 * TRACE_STEPS (1: print each step as it starts and ends and each call it makes, for a person watching).
 * Exit codes: see exit-codes.ts.
 */
import { runCli } from '@vendor-review/worker-io';
import { runWorker } from './run-worker.ts';

runCli('worker', () => runWorker());
