/**
 * The conformance harness: the scenario catalogue, one cell driven through a runtime adapter with
 * real worker processes, the evidence judged from the outside, and the crash spec every runtime's
 * e2e tests call. Built on the domain (the runtime contract, the crash points and what each must
 * show), the world (its ledger) and infra (worker processes).
 */
export {
  crashCatalogue,
  selectScenarios,
  scenarioId,
  baselineIdFor,
  scenarioFor,
  type Scenario,
  type Selection,
} from './scenarios.ts';
export { cellRequest, oneRequirement, CELL_VENDOR, CELL_REQUIREMENTS } from './request.ts';
export { runCell, errorObservation, type CellDeps } from './cell.ts';
export { APPROVER, followRun, type Followed, type FollowOptions } from './follow.ts';
export { MAIL_GRACE_MS, mailDelivered, mailOwed, mailShown } from './delivery.ts';
export { runMatrix, jobsFor, type MatrixJob, type MatrixOptions } from './matrix.ts';
export type { CellObservation, CellStatus } from './observation.ts';
export {
  computeEvidence,
  repeatedOperations,
  repeatSeqs,
  duplicatedSideEffects,
  duplicatedState,
  lastDurableBefore,
  marksAfterCrash,
  forkedCheckpoints,
  hazardHarm,
  executed,
  operationLabel,
  recoveryMs,
  safeDigest,
  approverCount,
  UNJUDGED_KINDS,
  type ApproverCount,
  type JudgedKind,
  type Evidence,
  type RepeatedOperation,
} from './evidence.ts';
export { atTheKill, atTheKillText, type AtTheKill } from './at-the-kill.ts';
export {
  checkCrashCell,
  checkApproverInbox,
  judgesApproverInbox,
  extraByKind,
  type CrashVerdict,
} from './crash-check.ts';
export { crashTestAgreementSpec, AGREEING_POINTS, type CrashTestAgreementOptions } from './crash-test-agreement.ts';
export { crashSpec, runThroughAdapter, type CrashSpecOptions, type CrashSpecCells } from './crash-spec.ts';
export { crashSpecOf, productionSpecOf } from './module-specs.ts';
export * from './production/index.ts';
export * from './granularity/index.ts';
export * from './window/index.ts';
export {
  baselineConfig,
  timedRun,
  variantReviews,
  type BareShape,
  type BenchEnv,
  type BenchPreset,
  type RuntimeBench,
  type BenchUnit,
  type InProcessBench,
  type PerStepConfig,
  type RecoveryBench,
  type RecoveryKnob,
  type StorageBench,
  type StorageLimits,
  type StoredRun,
  type ThroughputBench,
  type ThroughputCellRun,
  type ThroughputOutcome,
  type TimedRun,
  type CompletionFact,
  type OutboxFact,
  type ProvenanceFact,
  type RuntimeEnv,
  type RuntimeModule,
  type RuntimeRecords,
  type StartedRuntime,
  type WorkerModel,
} from './runtime-module.ts';
export {
  connectionTo,
  serversOf,
  type ServerConnections,
  type ServerRestartOptions,
  type ServerSpec,
  type ServerStartOptions,
  type StartedServer,
} from './servers.ts';
export { inLanes, type LaneOptions } from './lanes.ts';
export { startServers, startServer, connectionsOf, type Servers, type ServerOptions } from './bring-up.ts';
export { runtimeUnderTest, restartInfra, type RuntimeUnderTest, type UnderTestOptions } from './under-test.ts';
export * from './adapter.ts';
export { newRunOf, oneRunWorker } from './run-parts.ts';
export { runConfigurations } from './configurations.ts';
export * from './catalogue/crash-points.ts';
export * from './catalogue/crash-rules.ts';
export * from './catalogue/hazards.ts';
export * from './catalogue/severity.ts';
