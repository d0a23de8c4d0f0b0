import type { Answer, RouteRequest } from './answer.ts';
import { renderSitemap, renderVendorPage } from './vendors/render.ts';
import { vendorBySlug } from './vendors/index.ts';

const notFoundHtml = (path: string) =>
  `<!doctype html><html><head><title>Not found</title></head><body><main><h1>Not found</h1><p>Nothing lives at ${path.replace(/[<>&"]/g, '')}.</p></main></body></html>`;

/** GET /vendors/<slug>/<page path> and /vendors/<slug>/sitemap.json. */
export function webRoute(req: RouteRequest, pageLatencyMs: number): Answer {
  const html = (status: number, body: string): Answer => ({
    status,
    contentType: 'text/html; charset=utf-8',
    body,
    outcome: status < 400 ? 'ok' : 'error',
    latencyMs: pageLatencyMs,
  });
  if (req.method !== 'GET') return { ...html(405, notFoundHtml(req.path)), headers: { Allow: 'GET' } };
  const match = /^\/vendors\/([a-z0-9-]+)(?:\/(.*))?$/.exec(req.path);
  const vendor = match ? vendorBySlug(match[1]!) : undefined;
  if (!match || !vendor) return html(404, notFoundHtml(req.path));
  const rest = (match[2] ?? '').replace(/\/+$/, '');
  if (rest === 'sitemap.json') {
    return {
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify(renderSitemap(vendor, req.origin)),
      outcome: 'ok',
      latencyMs: pageLatencyMs,
    };
  }
  const page = vendor.pages.find((p) => p.path === rest);
  return page ? html(200, renderVendorPage(vendor, page)) : html(404, notFoundHtml(req.path));
}
