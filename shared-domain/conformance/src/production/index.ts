export {
  productionCatalogue,
  runHazard,
  checkHazard,
  runHazardsThroughAdapter,
  HAZARD_RUNNERS,
  RESTARTS_A_SERVER,
} from './catalogue.ts';
export { productionSpec } from './spec.ts';
export { failedRequest, ownErrorsOfStep, permanentRequest } from './own-errors.ts';
export {
  supervise,
  reportWorkerGone,
  notNowPauseMs,
  POLICIES,
  type Supervised,
  type SupervisorPolicy,
} from './supervisor.ts';
export {
  HazardSkipped,
  type HazardEnv,
  type HazardInfra,
  type HazardObservation,
  type HazardOutcome,
  type HazardRunner,
  type HazardScenario,
  type Figure,
} from './types.ts';
