/** A fictional vendor's website as data: the world renders it to HTML and to a sitemap. */
export interface VendorSection {
  heading?: string;
  paragraphs?: string[];
  list?: string[];
}

export interface VendorPage {
  /** Path under the vendor's base, '' for the home page. */
  path: string;
  /** What the sitemap calls it: home, pricing, security, trust, legal, faq, sla, status, news. */
  kind: string;
  title: string;
  sections: VendorSection[];
}

export interface VendorSite {
  slug: string;
  name: string;
  tagline: string;
  pages: VendorPage[];
}
