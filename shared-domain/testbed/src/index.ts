/**
 * Infrastructure on demand, shared by every package's tests and the compare harness: PostgreSQL
 * (the store every runtime is given), the worker spawner and bundler, and what any server the
 * harness starts is built from (process cleanup, the port race). A runtime's own server lives in
 * its package and is declared by its runtime module.
 * Each start logs one line to stderr saying what it started, and fails with one line (InfraError)
 * saying what is missing and how to provide it. Servers it spawns are stopped by `stop()`, or, if
 * the process ends first, by exit/signal hooks and by a watcher that outlives a SIGKILL.
 *
 *   const pg = await startPostgres();                    // DATABASE_URL, else embedded PostgreSQL 17
 *   const db = await freshDatabase(pg.url, 'my_test');   // isolated database; db.drop() afterwards
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
export { InfraError, reasonOf } from './infra-error.ts';
export { stderrLog, type InfraLog } from './infra-log.ts';
export { isProcessAlive, killWithParent, onProcessEnd } from './process-cleanup.ts';
export { startServerProcess, type ServerProcess, type ServerProcessOptions } from './server-process.ts';
export {
  AddressInUseError,
  listensOn,
  mentionsAddressInUse,
  startOnFreePort,
  startOnSamePort,
  type PortRaceOptions,
} from './port-race.ts';
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
  type WorkerSpec,
} from './worker-process.ts';
export { NetworkCut, addressesIn } from './network-cut.ts';
export { workerBundle, describeBuilt, sourcesHash, publishCached, type Built } from './worker-bundle.ts';
