/**
 * The production conformance suite against Temporal, the hazards the default `pnpm compare` runs
 * (one per lesson); production-more.e2e.test.ts has the rest. Two files because Temporal's rows wait
 * on its own timeouts and backoffs: in one file they were the longest the tests run, and CI's two
 * files at once ended on it alone. Real worker processes, a real dev server, real PostgreSQL and the
 * real world; verdicts judged from the ledger and the history.
 */
import { DEFAULT_HAZARDS } from '@vendor-review/conformance';
import { temporalProductionSpec } from './support/production-spec.ts';

temporalProductionSpec('the default’s hazards', DEFAULT_HAZARDS);
