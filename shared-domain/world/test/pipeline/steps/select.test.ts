import { describe, expect, it } from 'vitest';
import { fakePorts } from '../../../src/fake-ports.ts';
import { freshState, stateThrough, testCtx } from '../../../src/sample-state.ts';
import { rankPages, selectPage, selectRequirement } from '@vendor-review/pipeline';

describe('SELECT_REQUIREMENT', () => {
  it('takes the first pending requirement with no candidates yet', async () => {
    const state = { ...freshState('acme-analytics'), pending: ['sso', 'dpa'] };
    expect(await selectRequirement(state, fakePorts(), testCtx('SELECT_REQUIREMENT'))).toEqual({
      current: { requirementId: 'sso', candidates: [] },
    });
  });

  it('refuses to run with nothing pending', async () => {
    await expect(
      selectRequirement(freshState('acme-analytics'), fakePorts(), testCtx('SELECT_REQUIREMENT')),
    ).rejects.toMatchObject({ name: 'PermanentError', code: 'nothing-pending' });
  });
});

describe('SELECT_PAGE', () => {
  it('picks the pages the requirement kind prefers, best first', async () => {
    const state = await stateThrough('acme-analytics', 'SELECT_PAGE', 'sso');
    expect(state.current?.candidates.map((u) => new URL(u).pathname)).toEqual([
      '/vendors/acme-analytics/security',
      '/vendors/acme-analytics/pricing',
    ]);
  });

  it('caps the candidates at maxPagesPerRequirement', async () => {
    const state = await stateThrough('cobalt-mail', 'DISCOVER');
    const one = {
      ...state,
      request: { ...state.request, options: { maxPagesPerRequirement: 1 } },
      current: { requirementId: 'uptime-sla', candidates: [] },
    };
    const update = await selectPage(one, fakePorts(), testCtx('SELECT_PAGE'));
    expect(update.current?.candidates).toEqual([state.pages.find((p) => p.kind === 'status')!.url]);
  });

  it('never returns an empty list: nothing relevant means the home page, no pages at all means the base URL', async () => {
    const state = await stateThrough('acme-analytics', 'DISCOVER');
    const odd = { id: 'carbon', question: 'Does the vendor publish a carbon footprint report?' };
    expect(rankPages(state.pages, odd, 3, state.request.vendor.baseUrl)).toEqual([state.pages[0]!.url]);
    expect(rankPages([], odd, 3, state.request.vendor.baseUrl)).toEqual([state.request.vendor.baseUrl]);
  });

  it('fails permanently without a current requirement', async () => {
    await expect(selectPage(freshState('acme-analytics'), fakePorts(), testCtx('SELECT_PAGE'))).rejects.toMatchObject({
      name: 'PermanentError',
      code: 'no-current-requirement',
    });
  });
});
