export {
  isWindowScenario,
  windowScenario,
  windowSeries,
  windowSeriesId,
  WINDOW_DELAYS_MS,
  WINDOW_STEP_POINTS,
  WINDOW_STEPS,
  type WindowScenario,
  type WindowSelection,
  type WindowSeries,
  type WindowStep,
} from './catalogue.ts';
export { windowOutcome, type WindowOutcome } from './measure.ts';
export { nextDelays, timeToDurable, windowPoint, type WindowPoint, type WindowRun } from './sweep.ts';
