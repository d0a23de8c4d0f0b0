/**
 * Infrastructure on demand, shared by every package's tests and the compare harness.
 * Each start logs one line to stderr saying what it started, and fails with one line (InfraError)
 * saying what is missing and how to provide it. Servers it spawns are stopped by `stop()`, or, if
 * the process ends first, by exit/signal hooks and by a watcher that outlives a SIGKILL.
 *
 *   const pg = await startPostgres();                    // DATABASE_URL, else embedded PostgreSQL 17
 *   const db = await freshDatabase(pg.url, 'my_test');   // isolated database; db.drop() afterwards
 *   const temporal = await startTemporal({ namespace }); // TEMPORAL_ADDRESS, else the CLI's dev server
 *
 * The Temporal SDK's own test environment can run the same CLI instead of downloading one:
 *   TestWorkflowEnvironment.createLocal({ server: { executable: { type: 'existing-path', path: resolveTemporalCli()! } } })
 */
export {
  startPostgres,
  type PostgresHandle,
  type PostgresRestartOptions,
  type StartPostgresOptions,
} from './postgres.ts';
export {
  createDatabase,
  databaseUrl,
  freshDatabase,
  maskDatabaseUrl,
  type FreshDatabase,
} from './postgres-databases.ts';
export { startTemporal, type SdkDevServer, type StartTemporalOptions, type TemporalHandle } from './temporal.ts';
export type { TemporalRestartOptions } from './temporal-restart.ts';
export { resolveTemporalCli } from './temporal-cli.ts';
export {
  isTemporalConfigVariable,
  temporalSettings,
  temporalWorkerEnv,
  TEMPORAL_CONFIG_VARIABLES,
  type TemporalConnectionOptions,
  type TemporalSettings,
} from './temporal-config.ts';
export { InfraError } from './infra-error.ts';
export type { InfraLog } from './infra-log.ts';
export { isProcessAlive } from './process-cleanup.ts';
export {
  WorkerProcess,
  killAllWorkers,
  recordStartedWorkers,
  runWorkerToEnd,
  workerEnv,
  WORKER_ENV_PASSTHROUGH,
  workerLife,
  type StartedWorker,
  type WorkerLife,
  type WorkerProcessOptions,
} from './worker-process.ts';
export { workerBundle, describeBuilt, sourcesHash, publishCached, type Built } from './worker-bundle.ts';
