import type { ModelRequest } from './ports.ts';
import type { FetchedPage, Verdict } from './state.ts';

/**
 * Every prompt the pipeline sends, in one place. They are written for a real model (plain
 * instructions, JSON out) and laid out in labelled lines and delimited page blocks, which is also
 * what lets the simulated model in the world answer them deterministically.
 */
export const PAGE_OPEN = '<<<PAGE url=';
export const PAGE_CLOSE = '<<<END PAGE>>>';
export const KEYWORDS_LABEL = 'Keywords: ';
export const QUESTION_LABEL = 'Question: ';
export const REQUIREMENT_LABEL = 'Requirement: ';
export const VENDOR_LABEL = 'Vendor: ';
export const VERDICTS_LABEL = 'Verdicts:';
export const KEYWORD_SEPARATOR = ' | ';

const EXTRACT_SYSTEM = [
  'You are a careful vendor-risk analyst.',
  "You read a vendor's public web pages and report what each page states about one compliance question.",
  'You never invent or paraphrase evidence: every quote is copied character for character from the page.',
  'You reply with a single JSON object and nothing else.',
].join(' ');

export function extractPrompt(args: {
  requirementId: string;
  question: string;
  keywords: string[];
  pages: FetchedPage[];
}): ModelRequest {
  const blocks = args.pages.map((p) => `${PAGE_OPEN}${p.url}>>>\nTitle: ${p.title}\n${p.text}\n${PAGE_CLOSE}`);
  const user = [
    `${QUESTION_LABEL}${args.question}`,
    `${REQUIREMENT_LABEL}${args.requirementId}`,
    `${KEYWORDS_LABEL}${args.keywords.join(KEYWORD_SEPARATOR)}`,
    '',
    'For each page below, find the one sentence that best answers the question (the keywords show what to look for).',
    'Reply with JSON of exactly this shape, one entry per page, in page order:',
    '{"findings":[{"url":"<the page url>","found":true,"answer":"yes","quote":"<that sentence, copied verbatim>"}]}',
    'answer is "yes" if the sentence affirms the question, "no" if it denies it, "unclear" if it is hedged, planned or conditional.',
    'If a page says nothing about the question, give "found": false, "answer": "unclear" and "quote": "".',
    '',
    ...blocks,
  ].join('\n');
  return { system: EXTRACT_SYSTEM, user, maxTokens: 800 };
}

const DRAFT_SYSTEM = [
  'You are a vendor-risk analyst writing for a procurement team.',
  'You write short, plain Markdown and state only what the verdicts you are given support.',
].join(' ');

export function draftPrompt(args: {
  vendorName: string;
  verdicts: { verdict: Verdict; question: string }[];
}): ModelRequest {
  const lines = args.verdicts.flatMap(({ verdict, question }) => [
    `- [${verdict.requirementId}] ${verdict.status} (confidence ${verdict.confidence.toFixed(2)}): ${question}`,
    ...verdict.evidence.map((e) => `  evidence: ${e.url} "${e.quote}"`),
  ]);
  const user = [
    `${VENDOR_LABEL}${args.vendorName}`,
    VERDICTS_LABEL,
    ...lines,
    '',
    'Write the body of a vendor review: one summary sentence counting the verdicts, then one bullet per requirement',
    '(in the order given) saying what the evidence shows and what, if anything, to follow up with the vendor.',
    'Do not add a title, and do not mention anything that is not in the verdicts above.',
  ].join('\n');
  return { system: DRAFT_SYSTEM, user, maxTokens: 600 };
}
