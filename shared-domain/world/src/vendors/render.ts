import type { VendorPage, VendorSite } from './types.ts';

/** Renders a vendor page to the kind of HTML a small marketing site serves: nav, main, footer, a script to ignore. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

export function vendorPagePath(vendor: VendorSite, page: VendorPage): string {
  return `/vendors/${vendor.slug}/${page.path}`;
}

export function renderVendorPage(vendor: VendorSite, page: VendorPage): string {
  const nav = vendor.pages
    .map((p) => `<a href="${vendorPagePath(vendor, p)}">${escapeHtml(p.kind === 'home' ? 'Home' : p.title)}</a>`)
    .join(' &middot; ');
  const sections = page.sections
    .map((s) => {
      const heading = s.heading ? `<h2>${escapeHtml(s.heading)}</h2>\n` : '';
      const paragraphs = (s.paragraphs ?? []).map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
      const list = s.list ? `<ul>\n${s.list.map((i) => `  <li>${escapeHtml(i)}</li>`).join('\n')}\n</ul>` : '';
      return `<section>\n${heading}${paragraphs}\n${list}\n</section>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>${escapeHtml(page.title)} | ${escapeHtml(vendor.name)}</title>
  <style>body{font-family:system-ui;max-width:48rem;margin:auto}</style>
</head>
<body>
<header><strong>${escapeHtml(vendor.name)}</strong> &mdash; ${escapeHtml(vendor.tagline)}
<nav>${nav}</nav></header>
<main>
<h1>${escapeHtml(page.title)}</h1>
${sections}
</main>
<footer><p>&copy; 2025 ${escapeHtml(vendor.name)}. All rights reserved.</p></footer>
<script>window.dataLayer = window.dataLayer || []; window.dataLayer.push({ page: ${JSON.stringify(page.path)} });</script>
</body>
</html>
`;
}

export interface SitemapEntry {
  url: string;
  title: string;
  kind: string;
}

/** The sitemap the vendor publishes: absolute URLs on whatever origin the world is reached through. */
export function renderSitemap(vendor: VendorSite, origin: string): { vendor: string; pages: SitemapEntry[] } {
  return {
    vendor: vendor.name,
    pages: vendor.pages.map((p) => ({ url: `${origin}${vendorPagePath(vendor, p)}`, title: p.title, kind: p.kind })),
  };
}
