export {
  granularityCatalogue,
  granularityScenarioId,
  sweptConfigurations,
  GRANULARITY_CRASHES,
  GRANULARITY_CRASH_POINTS,
  type GranularityCrash,
  type GranularityScenario,
  type GranularitySelection,
} from './catalogue.ts';
export { measureGranularityCell, callTimes, durableRecordCount, type GranularityFigures } from './measure.ts';
