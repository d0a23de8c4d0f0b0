import type { Requirement } from './request.ts';

/**
 * The kinds of requirement a procurement reviewer usually asks about, with the words that locate
 * the evidence on a vendor's pages and the page kinds (as sitemaps label them) most likely to hold
 * it, in order of preference. A request may override the keywords per requirement.
 */
export interface RequirementKind {
  id: string;
  question: string;
  keywords: string[];
  pageKinds: string[];
  /** Words in a free-text question that identify this kind when the id does not. */
  aliases: string[];
}

export const REQUIREMENT_CATALOGUE: readonly RequirementKind[] = [
  {
    id: 'pricing',
    question: 'Is list pricing published for the plan we would buy?',
    keywords: ['$', '€', 'per seat', 'per user', 'per month', 'per year', 'USD'],
    pageKinds: ['pricing', 'home'],
    aliases: ['pricing', 'price', 'cost'],
  },
  {
    id: 'soc2',
    question: 'Does the vendor hold a current SOC 2 Type II report?',
    keywords: ['SOC 2', 'SOC2', 'Type II'],
    pageKinds: ['security', 'trust', 'faq', 'news'],
    aliases: ['soc 2', 'soc2'],
  },
  {
    id: 'sso',
    question: 'Is SAML single sign-on (SSO) available on the plan we would buy?',
    keywords: ['single sign-on', 'SSO', 'SAML'],
    pageKinds: ['security', 'pricing', 'faq', 'trust'],
    aliases: ['sso', 'single sign-on', 'saml'],
  },
  {
    id: 'data-residency',
    question: 'Can customer data be kept in the EU (data residency)?',
    keywords: ['data residency', 'stored', 'hosted', 'data centre', 'data center', 'region'],
    pageKinds: ['security', 'trust', 'legal', 'faq'],
    aliases: ['residency', 'data location', 'hosted in'],
  },
  {
    id: 'dpa',
    question: 'Will the vendor sign a Data Processing Agreement (DPA)?',
    keywords: ['DPA', 'Data Processing Agreement', 'Data Processing Addendum'],
    pageKinds: ['legal', 'faq', 'security', 'trust'],
    aliases: ['dpa', 'data processing'],
  },
  {
    id: 'uptime-sla',
    question: 'Is there a contractual uptime SLA?',
    keywords: ['uptime', 'SLA', 'service level'],
    pageKinds: ['sla', 'status', 'legal', 'faq', 'news'],
    aliases: ['uptime', 'sla', 'availability'],
  },
];

export const REQUIREMENT_KIND_IDS = REQUIREMENT_CATALOGUE.map((k) => k.id);

const STOPWORDS = new Set([
  'does',
  'the',
  'vendor',
  'have',
  'with',
  'that',
  'this',
  'what',
  'which',
  'will',
  'there',
  'from',
  'their',
  'they',
  'would',
  'should',
  'plan',
  'available',
  'current',
  'offer',
]);

/** The catalogue entry for a requirement: by id first, then by words in its question. */
export function requirementKind(req: Pick<Requirement, 'id' | 'question'>): RequirementKind | undefined {
  const byId = REQUIREMENT_CATALOGUE.find((k) => k.id === req.id);
  if (byId) return byId;
  const q = req.question.toLowerCase();
  return REQUIREMENT_CATALOGUE.find((k) => k.aliases.some((a) => q.includes(a)));
}

/** Keywords that locate the evidence: the request's own, else the catalogue's, else the question's content words. */
export function keywordsFor(req: Pick<Requirement, 'id' | 'question' | 'keywords'>): string[] {
  if (req.keywords?.length) return req.keywords;
  const kind = requirementKind(req);
  if (kind) return kind.keywords;
  const words = req.question.toLowerCase().match(/[a-z0-9][a-z0-9-]{3,}/g) ?? [];
  return [...new Set(words.filter((w) => !STOPWORDS.has(w)))].slice(0, 8);
}

/** A standard requirement of a catalogue kind, as a request would list it. */
export function catalogueRequirement(id: string): Requirement {
  const kind = REQUIREMENT_CATALOGUE.find((k) => k.id === id);
  if (!kind) throw new Error(`unknown requirement kind "${id}"; known: ${REQUIREMENT_KIND_IDS.join(', ')}`);
  return { id: kind.id, question: kind.question };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whole-word, case-insensitive for words ("SLA" must not match "translate"); plain substring for symbols such as "$". */
export function mentionsKeyword(text: string, keyword: string): boolean {
  const start = /^\w/.test(keyword) ? '\\b' : '';
  const end = /\w$/.test(keyword) ? '\\b' : '';
  return new RegExp(`${start}${escapeRegExp(keyword)}${end}`, 'i').test(text);
}
