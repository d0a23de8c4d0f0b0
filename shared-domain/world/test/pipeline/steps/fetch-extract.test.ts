import { describe, expect, it } from 'vitest';
import { isTransient, extract, fetchPage } from '@vendor-review/pipeline';
import { fakePorts } from '../../../src/fake-ports.ts';
import { stateThrough, testCtx } from '../../../src/sample-state.ts';

describe('FETCH', () => {
  it("stores the page's readable text under its url, without the site's navigation", async () => {
    const state = await stateThrough('acme-analytics', 'SELECT_PAGE', 'sso');
    const url = state.current!.candidates[0]!;
    const update = await fetchPage(state, fakePorts(), testCtx('FETCH'), { url, index: 0, of: 2 });
    const page = update.fetched![url]!;
    expect(page.title).toBe('Security at Acme | Acme Analytics');
    expect(page.text).toContain('Single sign-on is not available on the Team plan; it requires the Enterprise plan.');
    expect(page.text).not.toContain('Data Processing Addendum');
    expect(page.text).not.toContain('dataLayer');
  });

  it('does not read a page again that the run already has', async () => {
    const state = await stateThrough('acme-analytics', 'FETCH', 'sso');
    const ports = fakePorts();
    const url = state.current!.candidates[0]!;
    expect(await fetchPage(state, ports, testCtx('FETCH'), { url, index: 0, of: 2 })).toEqual({
      fetched: { [url]: state.fetched[url] },
    });
    expect(ports.calls).toEqual([]);
  });

  it('lets a permanent failure through (a page that does not exist)', async () => {
    const state = await stateThrough('acme-analytics', 'SELECT_PAGE', 'sso');
    const url = `${state.request.vendor.baseUrl}/careers`;
    await expect(fetchPage(state, fakePorts(), testCtx('FETCH'), { url, index: 0, of: 1 })).rejects.toMatchObject({
      name: 'PermanentError',
      status: 404,
    });
  });
});

describe('EXTRACT', () => {
  it('asks the model once over all candidate pages and keeps one finding per candidate, in order', async () => {
    const state = await stateThrough('acme-analytics', 'FETCH', 'sso');
    const ports = fakePorts();
    const update = await extract(state, ports, testCtx('EXTRACT'));
    expect(ports.calls.filter((c) => c.kind === 'model')).toHaveLength(1);
    const findings = update.findings!.sso!;
    expect(findings.map((f) => f.url)).toEqual(state.current!.candidates);
    expect(findings.map((f) => f.answer)).toEqual(['no', 'yes']);
    expect(findings[1]!.quote).toBe('SAML single sign-on (SSO) is included in every plan.');
  });

  it('treats a page the model skipped as saying nothing, and ignores pages it was not asked about', async () => {
    const state = await stateThrough('acme-analytics', 'FETCH', 'sso');
    const [first] = state.current!.candidates;
    const reply = JSON.stringify({
      findings: [
        { url: first, found: true, answer: 'yes', quote: 'x' },
        { url: 'http://elsewhere.test/', found: true, answer: 'yes', quote: 'y' },
      ],
    });
    const update = await extract(
      state,
      fakePorts({ model: () => `Sure! Here you go:\n\`\`\`json\n${reply}\n\`\`\`` }),
      testCtx('EXTRACT'),
    );
    expect(update.findings!.sso).toEqual([
      { url: first, found: true, answer: 'yes', quote: 'x' },
      { url: state.current!.candidates[1], found: false, answer: 'unclear', quote: '' },
    ]);
  });

  it('fails transiently on a reply that is not the JSON asked for', async () => {
    const state = await stateThrough('acme-analytics', 'FETCH', 'sso');
    const err = await extract(
      state,
      fakePorts({ model: () => 'I think SSO is probably fine.' }),
      testCtx('EXTRACT'),
    ).catch((e: unknown) => e);
    expect(isTransient(err)).toBe(true);
  });

  it('fails permanently when a candidate page was never fetched', async () => {
    const state = await stateThrough('acme-analytics', 'SELECT_PAGE', 'sso');
    await expect(extract(state, fakePorts(), testCtx('EXTRACT'))).rejects.toMatchObject({
      name: 'PermanentError',
      code: 'page-not-fetched',
    });
  });
});
