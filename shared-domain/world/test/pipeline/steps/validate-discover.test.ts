import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  isPermanent,
  InvalidRequestError,
  applyUpdate,
  initialState,
  type ReviewState,
  discover,
  parseSitemap,
  validate,
} from '@vendor-review/pipeline';
import { FAKE_ORIGIN, fakePorts } from '../../../src/fake-ports.ts';
import { freshState, testCtx } from '../../../src/sample-state.ts';

describe('VALIDATE', () => {
  it('parses the request, applies defaults and queues every requirement in order', async () => {
    const update = await validate(freshState('acme-analytics'), fakePorts(), testCtx('VALIDATE'));
    expect(update.pending).toEqual(['pricing', 'soc2', 'sso', 'data-residency', 'dpa', 'uptime-sla']);
    expect(update.request?.options.maxPagesPerRequirement).toBe(3);
  });

  it('rejects a malformed request with one permanent error naming every problem', async () => {
    const raw = JSON.parse(readFileSync(new URL('../../../fixtures/malformed-request.json', import.meta.url), 'utf8'));
    const state = initialState('rev-test-1', raw as ReviewState['request']);
    const err = await validate(state, fakePorts(), testCtx('VALIDATE')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidRequestError);
    expect(isPermanent(err)).toBe(true);
    const problems = (err as InvalidRequestError).problems;
    for (const path of [
      'vendor.name',
      'vendor.baseUrl',
      'requirements[0].id',
      'requirements[0].question',
      'requester.email',
      'options.maxPagesPerRequirement',
      'requirements[2].id',
    ]) {
      expect(
        problems.some((p) => p.startsWith(`${path}:`)),
        path,
      ).toBe(true);
    }
    expect((err as Error).message).not.toContain('\n');
  });
});

describe('DISCOVER', () => {
  it("reads the vendor's sitemap into page refs, with the call's identity on the request", async () => {
    const ports = fakePorts();
    const state = applyUpdate(freshState('acme-analytics'), {});
    const update = await discover(state, ports, testCtx('DISCOVER', { attempt: 2, idempotencyKey: 'k1' }));
    expect(update.pages?.map((p) => p.kind)).toEqual(['home', 'pricing', 'security', 'legal', 'sla']);
    expect(update.pages?.every((p) => p.url.startsWith(`${FAKE_ORIGIN}/vendors/acme-analytics/`))).toBe(true);
    expect(ports.calls[0]).toMatchObject({
      kind: 'web',
      url: `${FAKE_ORIGIN}/vendors/acme-analytics/sitemap.json`,
      meta: { runId: 'rev-test-1', step: 'DISCOVER', attempt: 2, idempotencyKey: 'k1', worker: 'T' },
    });
  });

  it('fails permanently when the vendor has no sitemap', async () => {
    const state = freshState('acme-analytics');
    const moved = {
      ...state,
      request: { ...state.request, vendor: { ...state.request.vendor, baseUrl: `${FAKE_ORIGIN}/vendors/nobody` } },
    };
    await expect(discover(moved, fakePorts(), testCtx('DISCOVER'))).rejects.toMatchObject({
      name: 'PermanentError',
      status: 404,
    });
  });

  it('resolves relative sitemap URLs, drops duplicates and refuses a sitemap that is not one', () => {
    const pages = parseSitemap(
      JSON.stringify({
        pages: [
          { url: 'pricing', title: 'P', kind: 'pricing' },
          { url: 'pricing', title: 'P again', kind: 'pricing' },
          { url: '/abs', title: 'A' },
        ],
      }),
      'http://x.test/vendors/v',
    );
    expect(pages).toEqual([
      { url: 'http://x.test/vendors/v/pricing', title: 'P', kind: 'pricing' },
      { url: 'http://x.test/abs', title: 'A', kind: 'page' },
    ]);
    expect(() => parseSitemap('<html>', 'http://x.test/v')).toThrow(/not JSON/);
    expect(() => parseSitemap('{"urls": []}', 'http://x.test/v')).toThrow(
      expect.objectContaining({ name: 'PermanentError', code: 'sitemap-invalid' }),
    );
  });
});
