/**
 * The production conformance suite against LangGraph's Functional API: every hazard in both
 * variants whose drill it offers (of the deploy drill only the unknown format: see harness/drills.ts), with real worker
 * processes, real PostgreSQL and the real world; verdicts judged from the ledger and the durable
 * records.
 */
import { productionSpecOf } from '@vendor-review/conformance';
import { runtime } from '../harness/functional/module.ts';

const only = process.env.LF_HAZARDS; // a comma-separated filter on scenario ids, for a look by hand

productionSpecOf(runtime, {
  filter: (s) => !only || only.split(',').some((f) => s.id.includes(f)),
  // Every hazard's verdict and figures, for MEASUREMENTS.md (LF_SUMMARY=1 prints them).
  onObserved: (observed) => {
    if (process.env.LF_SUMMARY)
      for (const o of observed)
        console.log(`${o.scenario.id} | ${o.status} | ${o.verdict} | ${o.note ?? ''} | ${JSON.stringify(o.figures)}`);
  },
});
