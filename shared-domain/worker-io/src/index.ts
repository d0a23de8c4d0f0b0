/**
 * What a worker runs in production, beside the pipeline: the HTTP ports (web, model, tracker,
 * mailer), the outbox, the migrations runner, the step-error table, transactions and
 * connection-loss handling, and the command-line frame every command uses. It never imports a test
 * server (embedded PostgreSQL, a Temporal dev server) or a build tool: those are the test bed's.
 */
export {
  createHttpPorts,
  htmlTitle,
  htmlToText,
  resolveModelOptions,
  type HttpPortsOptions,
  type ModelOptions,
} from './adapters/index.ts';
export { runMigrations, type MigrationPlan, type MigrationResult } from './migrations.ts';
export { registeredRuns, type RegisteredRun, type RegisteredRuns } from './registered-runs.ts';
export { createStepErrors, retryOwnErrors, stepErrorsTableSql, type StepErrors } from './step-errors.ts';
export { freePort, settlesWithin, sleep, tcpConnect } from './net-probe.ts';
export { inTransaction, withConnection } from './transaction.ts';
export { installedVersions } from './package-versions.ts';
export { isConnectionLoss, survivesConnectionLoss, waitForDatabase, workerPool } from './connection-loss.ts';
export {
  createOutbox,
  outboxTableSql,
  outboxBackoffMs,
  OUTBOX_MAX_ATTEMPTS,
  type Outbox,
  type OutboxRow,
  type OutboxStatus,
  type DrainOptions,
  type DrainOutcome,
  type DrainResult,
} from './outbox.ts';
export {
  parseCli,
  runCli,
  exitFor,
  commaList,
  wholeNumber,
  writableDirectory,
  UsageError,
  HelpRequested,
  type CliSpec,
  stopOnInterrupt,
  type RunCliOptions,
} from './cli.ts';
export { StepGate } from './step-gate.ts';
export { leaveAfterStepsInFlight, stepGate, workerLine, workerPorts } from './worker-frame.ts';
export { ensureWritableDirectory, makeDirectory, writeFileAtomic } from './files.ts';
export { stepTrace, traceSteps, traceWanted, TRACE_ENV, type StepTrace, type TraceWrite } from './step-trace.ts';
