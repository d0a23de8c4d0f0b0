import { z } from 'zod';
import { PermanentError } from '../errors.ts';
import type { Ports } from '../ports.ts';
import type { PageRef, ReviewState, StateUpdate } from '../state.ts';
import { callMeta, type StepContext } from './context.ts';

const SitemapSchema = z.object({
  pages: z.array(z.object({ url: z.string().min(1), title: z.string().default(''), kind: z.string().default('page') })),
});

export function sitemapUrl(baseUrl: string): string {
  return new URL('sitemap.json', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`).toString();
}

/** Turns the sitemap document into page refs: absolute URLs, no duplicates, sitemap order kept. */
export function parseSitemap(text: string, baseUrl: string): PageRef[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new PermanentError(`sitemap of ${baseUrl} is not JSON`, 'sitemap-invalid');
  }
  const parsed = SitemapSchema.safeParse(raw);
  if (!parsed.success)
    throw new PermanentError(
      `sitemap of ${baseUrl} has no valid pages list: ${parsed.error.issues[0]?.message}`,
      'sitemap-invalid',
    );
  const seen = new Set<string>();
  const pages: PageRef[] = [];
  for (const p of parsed.data.pages) {
    const url = new URL(p.url, sitemapUrl(baseUrl)).toString();
    if (seen.has(url)) continue;
    seen.add(url);
    pages.push({ url, title: p.title, kind: p.kind });
  }
  return pages;
}

/** DISCOVER: GET the vendor's sitemap through ports.web; set pages. */
export async function discover(state: ReviewState, ports: Ports, ctx: StepContext): Promise<StateUpdate> {
  const baseUrl = state.request.vendor.baseUrl;
  const page = await ports.web.get(sitemapUrl(baseUrl), callMeta(ctx));
  return { pages: parseSitemap(page.text, baseUrl) };
}
