/**
 * The production conformance suite against LangGraph: every hazard in both variants, with real
 * worker processes, real PostgreSQL and the real world; verdicts judged from the ledger and the
 * durable records.
 */
import { productionSpecOf } from '@vendor-review/conformance';
import { runtime } from '../harness/module.ts';

productionSpecOf(runtime);
