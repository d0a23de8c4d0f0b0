import type { VendorSite } from './types.ts';

/** A CRM. Designed facts: no published prices; no SOC 2 (ISO 27001 instead); the DPA contradicts itself (legal vs FAQ). */
export const borealisCrm: VendorSite = {
  slug: 'borealis-crm',
  name: 'Borealis CRM',
  tagline: 'The CRM for European sales teams',
  pages: [
    {
      path: '',
      kind: 'home',
      title: 'Borealis CRM: every customer conversation in one timeline',
      sections: [
        {
          paragraphs: [
            'Borealis CRM keeps every customer conversation in one timeline.',
            'Built in Oslo for sales teams across Europe.',
          ],
        },
        { heading: 'Features', list: ['Pipelines and forecasting', 'Two-way email sync', 'Quotes and e-signatures'] },
      ],
    },
    {
      path: 'pricing',
      kind: 'pricing',
      title: 'Plans',
      sections: [
        {
          paragraphs: [
            'Borealis comes in three plans: Starter, Growth and Enterprise.',
            'Contact our sales team for a quote tailored to the size of your team.',
            'All plans include email sync and unlimited pipelines.',
          ],
        },
      ],
    },
    {
      path: 'security',
      kind: 'security',
      title: 'Trust and security',
      sections: [
        {
          heading: 'Certifications',
          paragraphs: [
            'Borealis CRM does not hold a SOC 2 report at this time.',
            'We are certified to ISO/IEC 27001:2022 and audited every year.',
          ],
        },
        {
          heading: 'Identity',
          paragraphs: ['SAML single sign-on (SSO) is available on the Growth and Enterprise plans.'],
        },
        {
          heading: 'Where your data lives',
          paragraphs: ['Customer data is stored exclusively in the EU, in data centres in Frankfurt and Dublin.'],
        },
      ],
    },
    {
      path: 'legal/data-processing',
      kind: 'legal',
      title: 'Data Processing Agreement',
      sections: [
        {
          paragraphs: [
            'Our standard Data Processing Agreement (DPA) is available to every customer.',
            'It incorporates the EU Standard Contractual Clauses and our list of subprocessors.',
          ],
        },
      ],
    },
    {
      path: 'faq',
      kind: 'faq',
      title: 'Frequently asked questions',
      sections: [
        {
          heading: 'Contracts',
          paragraphs: [
            'A DPA is not offered to customers on the Starter plan.',
            'Invoices are issued in EUR, NOK or SEK.',
          ],
        },
        {
          heading: 'Reliability',
          paragraphs: ['Borealis guarantees 99.95% monthly uptime, backed by service credits.'],
        },
      ],
    },
  ],
};
