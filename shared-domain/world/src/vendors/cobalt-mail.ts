import type { VendorSite } from './types.ts';

/** A transactional email API. Designed facts: SOC 2 contradicts itself (trust vs news); SSO never mentioned; data stays in the US; the SLA is only "planned". */
export const cobaltMail: VendorSite = {
  slug: 'cobalt-mail',
  name: 'Cobalt Mail',
  tagline: 'Transactional email through one simple API',
  pages: [
    {
      path: '',
      kind: 'home',
      title: 'Cobalt Mail: transactional email through one simple API',
      sections: [
        {
          paragraphs: [
            'Cobalt Mail delivers receipts, password resets and alerts through one simple API.',
            'Developers at 900 companies send their first email within five minutes.',
          ],
        },
      ],
    },
    {
      path: 'pricing',
      kind: 'pricing',
      title: 'Pricing',
      sections: [
        {
          paragraphs: [
            'The Starter plan costs $20 per month for 50,000 emails.',
            'The Scale plan costs $90 per month for 300,000 emails.',
            'Dedicated IP addresses are an add-on for the Scale plan.',
          ],
        },
      ],
    },
    {
      path: 'trust',
      kind: 'trust',
      title: 'Trust center',
      sections: [
        {
          heading: 'Compliance',
          paragraphs: ["Cobalt Mail's SOC 2 Type II report is current and available under NDA."],
        },
        {
          heading: 'Data handling',
          paragraphs: [
            'Email content is encrypted in transit and at rest.',
            'All customer data is stored in the United States, and Cobalt Mail does not offer a choice of data residency.',
          ],
        },
      ],
    },
    {
      path: 'legal/dpa',
      kind: 'legal',
      title: 'Data Processing Addendum',
      sections: [
        {
          paragraphs: [
            'Cobalt Mail offers a Data Processing Addendum (DPA) that customers can sign online.',
            'The addendum lists every subprocessor and the notice we give before adding one.',
          ],
        },
      ],
    },
    {
      path: 'news',
      kind: 'news',
      title: 'Company news',
      sections: [
        {
          heading: 'Spring update',
          paragraphs: [
            'Our SOC 2 Type II audit is still in progress and the report has not been issued yet.',
            'An uptime SLA is planned for enterprise customers later this year.',
          ],
        },
      ],
    },
    {
      path: 'status',
      kind: 'status',
      title: 'System status',
      sections: [
        { paragraphs: ['All systems operational.', 'Past incidents are listed below with their root-cause reports.'] },
      ],
    },
  ],
};
