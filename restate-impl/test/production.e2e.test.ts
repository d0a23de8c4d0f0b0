/**
 * The production conformance suite against Restate: every hazard in both variants, with real
 * endpoint processes, the real Restate server, PostgreSQL and the world; verdicts judged from the
 * ledger and the server's journal. Rows whose drill the adapter lacks skip, saying so.
 */
import { productionSpecOf } from '@vendor-review/conformance';
import { runtime } from '../harness/module.ts';

productionSpecOf(runtime);
