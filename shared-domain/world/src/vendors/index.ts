import type { VerdictStatus } from '@vendor-review/pipeline';
import { acmeAnalytics } from './acme-analytics.ts';
import { borealisCrm } from './borealis-crm.ts';
import { cobaltMail } from './cobalt-mail.ts';
import type { VendorSite } from './types.ts';

export type { VendorSite, VendorPage, VendorSection } from './types.ts';

export const VENDORS: readonly VendorSite[] = [acmeAnalytics, borealisCrm, cobaltMail];
export const VENDOR_SLUGS = VENDORS.map((v) => v.slug);

export function vendorBySlug(slug: string): VendorSite | undefined {
  return VENDORS.find((v) => v.slug === slug);
}

/**
 * What a correct pipeline concludes for each vendor's standard request (all six catalogue
 * requirements), by design of the pages above. Tests and the harness assert against this.
 */
export const EXPECTED_VERDICTS: Record<string, Record<string, VerdictStatus>> = {
  'acme-analytics': {
    pricing: 'confirmed',
    soc2: 'confirmed',
    sso: 'contradictory',
    'data-residency': 'missing',
    dpa: 'confirmed',
    'uptime-sla': 'denied',
  },
  'borealis-crm': {
    pricing: 'missing',
    soc2: 'denied',
    sso: 'confirmed',
    'data-residency': 'confirmed',
    dpa: 'contradictory',
    'uptime-sla': 'confirmed',
  },
  'cobalt-mail': {
    pricing: 'confirmed',
    soc2: 'contradictory',
    sso: 'missing',
    'data-residency': 'denied',
    dpa: 'confirmed',
    'uptime-sla': 'missing',
  },
};
