/**
 * The worker process: `node --import tsx src/worker.ts` (run-worker.ts).
 *
 * Env: the Temporal client settings as every Temporal client reads them (@temporalio/envconfig:
 * TEMPORAL_ADDRESS, default 127.0.0.1:7233; TEMPORAL_NAMESPACE, default "default"; TEMPORAL_API_KEY;
 * TEMPORAL_TLS*; TEMPORAL_PROFILE of TEMPORAL_CONFIG_FILE or ~/.config/temporalio/temporal.toml),
 * TASK_QUEUE (default "vendor-review"), WORLD_URL (required), DATABASE_URL (hardened outbox and
 * dead letters; without it only naive runs work), WORKFLOW_BUNDLE (the prebuilt bundle; without
 * it the worker bundles at start, which is slow), WORKER_NAME (ledger label),
 * STICKY_SCHEDULE_TO_START_MS (default: worker-options.ts), SHUTDOWN_GRACE_MS (how long activities in
 * flight may finish after SIGTERM before they are cancelled; unset: the SDK's 0), TRACE_STEPS (1: print
 * each activity as it starts and ends and each call it makes, for a person watching).
 *
 * It prints one line when it is polling: `WORKER READY name=… pid=… startMs=…`, where startMs is
 * the time from process start, so the cost of a replacement worker is visible.
 */
import { runCli } from '@vendor-review/worker-io';
import { runWorker } from './run-worker.ts';

runCli('worker', () => runWorker());
