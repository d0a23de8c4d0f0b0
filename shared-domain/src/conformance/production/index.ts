export { productionCatalogue, runHazard, checkHazard, runHazardsThroughAdapter, HAZARD_RUNNERS } from './catalogue.ts';
export { productionSpec } from './spec.ts';
export { followRun, type Followed } from './follow.ts';
export {
  HazardSkipped,
  type HazardEnv,
  type HazardObservation,
  type HazardOutcome,
  type HazardRunner,
  type HazardScenario,
  type Figure,
} from './types.ts';
