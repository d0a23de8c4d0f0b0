export { startWorld, createWorldServer, type World, type WorldOptions } from './server.ts';
export { worldClient, type WorldClient, type DeliveryView } from './client.ts';
export { ROUTES, type WorldConfig } from './control.ts';
export { POSTED_PATHS } from './answer.ts';
export {
  LedgerEntrySchema,
  type LedgerEntry,
  type LedgerKind,
  type LedgerOutcome,
  type LedgerFilter,
} from './ledger.ts';
export { FAULT_KINDS, type FaultKind, type FaultRule, type FaultRuleInput } from './faults.ts';
export type { Delivery } from './deliveries.ts';
export {
  MODEL_PRICES,
  UPSTREAM_PRICES,
  DEFAULT_MODEL,
  costUsd,
  priceOf,
  sumCosts,
  type ModelPrice,
} from './pricing.ts';
export type { ModelUpstream } from './model-upstream.ts';
export { VENDORS, VENDOR_SLUGS, EXPECTED_VERDICTS, vendorBySlug, type VendorSite } from './vendors/index.ts';
export { vendorRequest, rebaseOnWorld } from './requests.ts';
export { summarizeLedger, type LedgerSummary } from './summary.ts';
