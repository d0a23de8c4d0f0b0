import { REQUIREMENT_KIND_IDS, catalogueRequirement, type ReviewRequestInput } from '@vendor-review/pipeline';
import { vendorBySlug, VENDOR_SLUGS } from './vendors/index.ts';

/** The standard request for one of the world's vendors: every catalogue requirement, in catalogue order. */
export function vendorRequest(
  slug: string,
  worldUrl: string,
  requester = { name: 'Priya Raman', email: 'priya.raman@example.com' },
): ReviewRequestInput {
  const vendor = vendorBySlug(slug);
  if (!vendor) throw new Error(`unknown vendor "${slug}"; the world has: ${VENDOR_SLUGS.join(', ')}`);
  return {
    vendor: { name: vendor.name, baseUrl: `${worldUrl.replace(/\/+$/, '')}/vendors/${slug}` },
    requirements: REQUIREMENT_KIND_IDS.map(catalogueRequirement),
    requester,
  };
}

/**
 * Request files name the world's vendors at its standalone address; when the world in use lives
 * elsewhere (an ephemeral port), point the vendor at it. URLs that are not world vendor paths
 * (a real vendor's site) are left alone.
 */
export function rebaseOnWorld<T>(request: T, worldUrl: string): T {
  if (!request || typeof request !== 'object') return request;
  const vendor = (request as { vendor?: { baseUrl?: unknown } }).vendor;
  if (!vendor || typeof vendor.baseUrl !== 'string') return request;
  let parsed: URL;
  try {
    parsed = new URL(vendor.baseUrl);
  } catch {
    return request;
  }
  if (!parsed.pathname.startsWith('/vendors/')) return request;
  const baseUrl = `${worldUrl.replace(/\/+$/, '')}${parsed.pathname.replace(/\/+$/, '')}`;
  return { ...request, vendor: { ...vendor, baseUrl } };
}
