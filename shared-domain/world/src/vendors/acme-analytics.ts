import type { VendorSite } from './types.ts';

/** Product analytics. Designed facts: SSO contradicts itself (pricing vs security); data residency is never mentioned; no uptime SLA. */
export const acmeAnalytics: VendorSite = {
  slug: 'acme-analytics',
  name: 'Acme Analytics',
  tagline: 'Product analytics for growing teams',
  pages: [
    {
      path: '',
      kind: 'home',
      title: 'Acme Analytics: product analytics for growing teams',
      sections: [
        {
          paragraphs: [
            'Acme Analytics turns raw product events into dashboards your whole team can read.',
            'More than 2,000 companies use Acme to learn how customers really use their product.',
          ],
        },
        {
          heading: 'What you get',
          list: [
            'Event tracking with autocapture',
            'Funnels, retention and cohorts',
            'Warehouse sync to Snowflake and BigQuery',
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
          heading: 'Plans',
          paragraphs: [
            'The Team plan costs $49 per seat per month, billed annually.',
            'The Enterprise plan is quoted on request and adds audit logs and custom retention.',
          ],
        },
        {
          heading: 'Included in every plan',
          paragraphs: [
            'SAML single sign-on (SSO) is included in every plan.',
            'Every plan comes with unlimited dashboards and twelve months of event history.',
          ],
        },
      ],
    },
    {
      path: 'security',
      kind: 'security',
      title: 'Security at Acme',
      sections: [
        {
          heading: 'Certifications',
          paragraphs: [
            'Acme Analytics holds a current SOC 2 Type II report, renewed in March 2025.',
            'Customer data is encrypted at rest with AES-256 and in transit with TLS 1.2 or later.',
          ],
        },
        {
          heading: 'Access control',
          paragraphs: [
            'Single sign-on is not available on the Team plan; it requires the Enterprise plan.',
            'Role-based access control lets admins limit who can export raw events.',
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
            'Our Data Processing Addendum (DPA) is part of the customer terms and can be countersigned on request.',
            'Acme Analytics acts as a processor and engages only the subprocessors listed below.',
            'Standard Contractual Clauses cover transfers of personal data outside the EEA.',
          ],
        },
        {
          heading: 'Subprocessors',
          list: ['Amazon Web Services (infrastructure)', 'Postmark (transactional email)', 'Zendesk (support)'],
        },
      ],
    },
    {
      path: 'sla',
      kind: 'sla',
      title: 'Service levels',
      sections: [
        {
          paragraphs: [
            'Acme Analytics does not offer a contractual uptime SLA on any plan.',
            'Incidents and maintenance windows are published on our status page as they happen.',
          ],
        },
      ],
    },
  ],
};
