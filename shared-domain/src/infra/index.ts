/**
 * Infrastructure on demand, shared by every package's tests and the compare harness.
 * Each start logs one line to stderr saying what it started, and fails with one line saying what
 * is missing and how to provide it.
 */
export { startPostgres, type PostgresHandle, type StartPostgresOptions } from './postgres.ts';
export { createDatabase, databaseUrl, freshDatabase, maskDatabaseUrl, type FreshDatabase } from './postgres-databases.ts';
export { startTemporal, type SdkDevServer, type StartTemporalOptions, type TemporalHandle } from './temporal.ts';
export { resolveTemporalCli } from './temporal-cli.ts';
export { InfraError } from './infra-error.ts';
export type { InfraLog } from './infra-log.ts';
export { freePort } from './net-probe.ts';
