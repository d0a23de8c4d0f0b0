import { crashSuite } from './crash.ts';
import { granularitySuite } from './granularity.ts';
import { productionSuite } from './production.ts';
import type { Suite } from './suite.ts';
import { windowSuite } from './window.ts';

/**
 * Every suite `pnpm compare` knows, one line each, in the order of the report (and of results.json's
 * rows). `--suite` takes these names; a suite is one file (suite.ts says what one is) and a line here.
 */
export const SUITES: readonly Suite[] = [crashSuite, productionSuite, granularitySuite, windowSuite];
