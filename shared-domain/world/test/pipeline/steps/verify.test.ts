import { describe, expect, it } from 'vitest';
import { type Finding, judge, quoteIsOnPage, verify } from '@vendor-review/pipeline';
import { fakePorts } from '../../../src/fake-ports.ts';
import { freshState, stateThrough, testCtx } from '../../../src/sample-state.ts';

const f = (answer: Finding['answer'], quote = 'A sentence that is long enough.'): Finding => ({
  url: 'http://v.test/p',
  found: true,
  answer,
  quote,
});

describe('VERIFY', () => {
  it.each([
    ['acme-analytics', 'sso', 'contradictory'],
    ['acme-analytics', 'data-residency', 'missing'],
    ['acme-analytics', 'uptime-sla', 'denied'],
    ['borealis-crm', 'sso', 'confirmed'],
    ['cobalt-mail', 'uptime-sla', 'missing'],
  ] as const)('%s %s comes out %s', async (slug, requirementId, status) => {
    const state = await stateThrough(slug, 'VERIFY', requirementId);
    const verdict = state.verdicts[requirementId]!;
    expect(verdict.status).toBe(status);
    for (const e of verdict.evidence) expect(state.fetched[e.url]!.text).toContain(e.quote);
  });

  it('drops a quote that is not on the page it is attributed to, so an invented fact counts as missing', async () => {
    const state = await stateThrough('acme-analytics', 'EXTRACT', 'sso');
    const [security, pricing] = state.current!.candidates as [string, string];
    const invented: Finding[] = [
      { url: security, found: true, answer: 'yes', quote: 'SAML SSO is included on the Team plan at no cost.' },
      // Real sentence, wrong page: the pricing page's quote attributed to the security page.
      { url: security, found: true, answer: 'yes', quote: 'SAML single sign-on (SSO) is included in every plan.' },
      { url: pricing, found: false, answer: 'unclear', quote: '' },
    ];
    const update = await verify({ ...state, findings: { sso: invented } }, fakePorts(), testCtx('VERIFY'));
    expect(update.verdicts!.sso).toMatchObject({ status: 'missing', evidence: [] });
  });

  it('judges agreement, disagreement, hedges and silence', () => {
    expect(judge('r', [f('yes'), f('yes')], 2)).toMatchObject({ status: 'confirmed', confidence: 0.8 });
    expect(judge('r', [f('no')], 2)).toMatchObject({ status: 'denied', confidence: 0.7 });
    expect(judge('r', [f('yes'), f('no')], 2)).toMatchObject({ status: 'contradictory', confidence: 0.5 });
    expect(judge('r', [f('unclear')], 2)).toMatchObject({ status: 'missing', confidence: 0.4 });
    expect(judge('r', [], 3)).toMatchObject({ status: 'missing', confidence: 0.7, evidence: [] });
  });

  it('compares quotes modulo whitespace and refuses empty or tiny quotes', () => {
    expect(quoteIsOnPage(f('yes', 'long  enough\nsentence here'), 'Here is a long enough sentence here.')).toBe(true);
    expect(quoteIsOnPage(f('yes', 'Here'), 'Here is a long enough sentence here.')).toBe(false);
    expect(quoteIsOnPage({ ...f('yes'), found: false }, 'A sentence that is long enough.')).toBe(false);
    expect(quoteIsOnPage(f('yes'), undefined)).toBe(false);
  });

  it('fails permanently without a current requirement', async () => {
    await expect(verify(freshState('acme-analytics'), fakePorts(), testCtx('VERIFY'))).rejects.toMatchObject({
      name: 'PermanentError',
    });
  });
});
