/**
 * The production conformance suite against DBOS: every hazard in both variants, with real worker
 * processes, real PostgreSQL and the real world; verdicts judged from the ledger and the journal.
 * The adapter has no deploy drill, and DBOS no in-memory mode (its journal is always in
 * PostgreSQL): those rows skip, saying so; so does restart-server, which has no server here.
 */
import { productionSpecOf } from '@vendor-review/conformance';
import { runtime } from '../harness/module.ts';

productionSpecOf(runtime);
