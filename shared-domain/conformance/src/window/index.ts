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
export { windowOutcome, type StartOutcome, type WindowOutcome } from './measure.ts';
export {
  nextDelays,
  timeToDurable,
  windowSeriesFigures,
  windowPoint,
  type DurableQuartiles,
  type WindowSeriesFigures,
  type WindowPoint,
  type WindowRun,
} from './sweep.ts';
export { spanLock, type SpanLock } from './alone.ts';
