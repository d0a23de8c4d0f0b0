/** The production conformance suite against Temporal, the hazards only `--full` runs (see production.e2e.test.ts). */
import { DEFAULT_HAZARDS, HAZARD_IDS } from '@vendor-review/conformance';
import { temporalProductionSpec } from './support/production-spec.ts';

temporalProductionSpec(
  'the other hazards',
  HAZARD_IDS.filter((id) => !DEFAULT_HAZARDS.includes(id)),
);
