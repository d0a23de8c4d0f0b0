import {
  KEYWORD_SEPARATOR,
  KEYWORDS_LABEL,
  PAGE_CLOSE,
  PAGE_OPEN,
  VENDOR_LABEL,
  VERDICTS_LABEL,
} from '@vendor-review/pipeline';

/**
 * The world's stand-in for a language model: a pure function from prompt to answer, so the same
 * request always gets the same reply. It follows the pipeline's prompts the way a diligent but
 * literal model would: per page, the sentence with most keyword hits; negation words mean "no",
 * hedges mean "unclear". It knows nothing about the vendors beyond what the prompt contains.
 */
const NEGATION = /\b(not|never|no longer|without|cannot|can't|isn't|doesn't|don't|unavailable|excluded)\b/i;
const HEDGE = /\b(planned|plans to|roadmap|in progress|upcoming|expected|soon|pilot|may)\b/i;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function keywordPattern(keyword: string): RegExp {
  const body = escapeRegExp(keyword);
  // Whole words for words; plain substrings for symbols such as "$".
  const start = /^\w/.test(keyword) ? '\\b' : '';
  const end = /\w$/.test(keyword) ? '\\b' : '';
  return new RegExp(`${start}${body}${end}`, 'i');
}

export function splitSentences(text: string): string[] {
  return text
    .split('\n')
    .flatMap((line) => line.split(/(?<=[.!?])\s+(?=[A-Z0-9"'(])/))
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

export function bestSentence(text: string, keywords: string[]): string | undefined {
  const patterns = keywords.map(keywordPattern);
  let best: { sentence: string; hits: number } | undefined;
  for (const sentence of splitSentences(text)) {
    const hits = patterns.filter((p) => p.test(sentence)).length;
    if (hits > 0 && (!best || hits > best.hits)) best = { sentence, hits };
  }
  return best?.sentence;
}

export function polarity(sentence: string): 'yes' | 'no' | 'unclear' {
  if (NEGATION.test(sentence)) return 'no';
  if (HEDGE.test(sentence)) return 'unclear';
  return 'yes';
}

interface PageBlock {
  url: string;
  text: string;
}

function pageBlocks(prompt: string): PageBlock[] {
  const blocks: PageBlock[] = [];
  let at = prompt.indexOf(PAGE_OPEN);
  while (at !== -1) {
    const headerEnd = prompt.indexOf('>>>\n', at);
    const close = prompt.indexOf(PAGE_CLOSE, headerEnd);
    if (headerEnd === -1 || close === -1) break;
    const url = prompt.slice(at + PAGE_OPEN.length, headerEnd);
    const body = prompt.slice(headerEnd + 4, close).replace(/^Title: .*\n/, '');
    blocks.push({ url, text: body });
    at = prompt.indexOf(PAGE_OPEN, close);
  }
  return blocks;
}

function labelled(prompt: string, label: string): string | undefined {
  const line = prompt.split('\n').find((l) => l.startsWith(label));
  return line?.slice(label.length).trim();
}

function answerExtract(prompt: string): string {
  const keywords = (labelled(prompt, KEYWORDS_LABEL) ?? '')
    .split(KEYWORD_SEPARATOR.trim())
    .map((k) => k.trim())
    .filter(Boolean);
  const findings = pageBlocks(prompt).map(({ url, text }) => {
    const quote = bestSentence(text, keywords);
    return quote
      ? { url, found: true, answer: polarity(quote), quote }
      : { url, found: false, answer: 'unclear', quote: '' };
  });
  return JSON.stringify({ findings });
}

const VERDICT_LINE = /^- \[(.+?)\] (confirmed|denied|contradictory|missing) \(confidence ([\d.]+)\): (.*)$/;

const ADVICE: Record<string, (id: string) => string> = {
  confirmed: (id) => `**${id}**: confirmed by the vendor's own pages; no follow-up needed.`,
  denied: (id) =>
    `**${id}**: the vendor states it does not meet this; treat it as a gap or ask for a roadmap commitment.`,
  contradictory: (id) =>
    `**${id}**: the vendor's pages contradict each other; ask for written confirmation before signing.`,
  missing: (id) => `**${id}**: nothing clear on the public pages; ask the vendor directly.`,
};

/**
 * The draft's renditions: the same facts in other words, as a model sampled at temperature > 0
 * writes them. Rendition 0 is the deterministic answer.
 */
const DRAFT_RENDITIONS: {
  summary: (vendor: string, n: number, counts: string) => string;
  follow: (open: string) => string;
  clear: string;
}[] = [
  {
    summary: (vendor, n, counts) => `${vendor} was checked against ${n} requirement${n === 1 ? '' : 's'}: ${counts}.`,
    follow: (open) => `Recommendation: follow up on ${open} before approval.`,
    clear: 'Recommendation: no blockers found on the public pages.',
  },
  {
    summary: (vendor, n, counts) => `Of the ${n} requirement${n === 1 ? '' : 's'} checked for ${vendor}: ${counts}.`,
    follow: (open) => `Next step: ask ${open} in writing before anyone signs.`,
    clear: 'Next step: none; the public pages raise no blocker.',
  },
  {
    summary: (vendor, n, counts) => `Review of ${vendor} (${n} requirement${n === 1 ? '' : 's'}): ${counts}.`,
    follow: (open) => `Before approval, settle: ${open}.`,
    clear: 'Nothing to settle before approval.',
  },
];

/** 0 stays 0; later renditions cycle through the others, never back to the deterministic one. */
function renditionIndex(rendition: number, count: number): number {
  return rendition <= 0 ? 0 : 1 + ((rendition - 1) % (count - 1));
}

function answerDraft(prompt: string, rendition: number): string {
  const vendor = labelled(prompt, VENDOR_LABEL) ?? 'The vendor';
  const verdicts = prompt
    .split('\n')
    .map((l) => VERDICT_LINE.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ id: m[1]!, status: m[2]! }));
  const count = (s: string) => verdicts.filter((v) => v.status === s).length;
  const words = DRAFT_RENDITIONS[renditionIndex(rendition, DRAFT_RENDITIONS.length)]!;
  const summary = words.summary(
    vendor,
    verdicts.length,
    `${count('confirmed')} confirmed, ${count('denied')} denied, ${count('contradictory')} contradictory and ${count('missing')} missing`,
  );
  const open = verdicts.filter((v) => v.status !== 'confirmed').map((v) => v.id);
  const recommendation = open.length ? words.follow(open.join(', ')) : words.clear;
  return [summary, '', ...verdicts.map((v) => `- ${ADVICE[v.status]!(v.id)}`), '', recommendation].join('\n');
}

/**
 * The whole model: extract prompts get JSON findings, draft prompts get Markdown, anything else a
 * polite refusal. `rendition` > 0 answers as a sampled model would the n-th time it is asked again
 * (model-variation.ts): the draft in other words, the findings in another order; the facts stay.
 */
export function simulateCompletion(userPrompt: string, rendition = 0): string {
  if (userPrompt.includes(PAGE_OPEN) && userPrompt.includes(KEYWORDS_LABEL)) {
    const answer = answerExtract(userPrompt);
    if (rendition % 2 === 0) return answer;
    const { findings } = JSON.parse(answer) as { findings: unknown[] };
    return JSON.stringify({ findings: [...findings].reverse() });
  }
  if (userPrompt.includes(VERDICTS_LABEL) && userPrompt.includes(VENDOR_LABEL))
    return answerDraft(userPrompt, rendition);
  return 'I can only help with vendor reviews: send page excerpts with a question, or verdicts to summarise.';
}
