import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpPorts } from '@vendor-review/worker-io';
import { reviewDigest, type ReviewRequestInput, runPlain } from '@vendor-review/pipeline';
import {
  EXPECTED_VERDICTS,
  rebaseOnWorld,
  startWorld,
  summarizeLedger,
  VENDOR_SLUGS,
  type World,
} from '../../src/index.ts';

let world: World;
beforeAll(async () => {
  world = await startWorld({ modelLatencyMs: 20 });
});
afterAll(() => world.stop());

const fixture = (slug: string): ReviewRequestInput =>
  rebaseOnWorld(
    JSON.parse(readFileSync(new URL(`../../fixtures/${slug}.json`, import.meta.url), 'utf8')) as ReviewRequestInput,
    world.url,
  );

describe('plain runner against the world', () => {
  it.each(VENDOR_SLUGS)('reviews %s from its fixture and reaches the designed verdicts', async (slug) => {
    const { state, failed } = await runPlain(fixture(slug), createHttpPorts({ worldUrl: world.url }), {
      runId: `plain-${slug}`,
    });
    expect(failed, state.failure?.error).toBe(false);
    expect(Object.fromEntries(Object.values(state.verdicts).map((v) => [v.requirementId, v.status]))).toEqual(
      EXPECTED_VERDICTS[slug],
    );
    expect(state.pending).toEqual([]);
    expect(Object.keys(state.progressNotes)).toHaveLength(6);
    expect(state.draft?.text).toContain(`# Vendor review: ${state.request.vendor.name}`);
    expect(state.delivery).toMatchObject({ duplicate: false, to: 'priya.raman@example.com' });

    // The ledger, not the runner, says what happened: every operation once, 6 notes, 1 mail, 7 paid calls.
    const usage = summarizeLedger(world.ledger({ runId: `plain-${slug}` }));
    expect(usage.calls).toMatchObject({ model: 7, tracker: 6, mail: 1 });
    expect(usage.repeatedOps).toEqual({});
    expect(usage.costUsd).toBeGreaterThan(0);
    expect(world.outbox(`plain-${slug}`)).toHaveLength(1);
  });

  it('produces the same review digest every time: the baseline for "equal to the uncrashed run"', async () => {
    const ports = createHttpPorts({ worldUrl: world.url });
    const [a, b] = await Promise.all([
      runPlain(fixture('acme-analytics'), ports),
      runPlain(fixture('acme-analytics'), ports),
    ]);
    expect(a.state.runId).not.toBe(b.state.runId);
    expect(reviewDigest(a.state)).toBe(reviewDigest(b.state));
    expect(a.state.draft?.text).toContain('| sso | contradictory | 0.50 | /security, /pricing |');
  });

  it('with keys, running the same run again repeats the reads and the paid calls but not the note, the approval request or the mail', async () => {
    const ports = createHttpPorts({ worldUrl: world.url });
    const first = await runPlain(fixture('cobalt-mail'), ports, { runId: 'plain-keys', keys: true });
    const again = await runPlain(fixture('cobalt-mail'), ports, { runId: 'plain-keys', keys: true });
    expect(again.state.delivery).toEqual({ ...first.state.delivery, duplicate: true });
    expect(again.state.progressNotes).toEqual(first.state.progressNotes);
    expect(world.outbox('plain-keys')).toHaveLength(1);
    expect(world.notes('plain-keys')).toHaveLength(6);
    expect(world.inbox('plain-keys')).toHaveLength(1);
    const usage = summarizeLedger(world.ledger({ runId: 'plain-keys' }));
    expect(usage.deduplicated).toBe(8);
    expect(usage.calls.model).toBe(14);
  });

  it('has no retries: a permanent or a transient failure goes straight to the dead letter with its step', async () => {
    const ports = createHttpPorts({ worldUrl: world.url });
    world.addFault({ route: '/vendors/borealis-crm/sitemap.json', kind: '404', runId: 'plain-404' });
    const gone = await runPlain(fixture('borealis-crm'), ports, { runId: 'plain-404' });
    expect(gone.failed).toBe(true);
    expect(gone.state.failure).toMatchObject({
      step: 'DISCOVER',
      attempts: 1,
      error: expect.stringMatching(/^PermanentError: .*HTTP 404/),
    });

    world.addFault({ route: 'model', kind: '503', runId: 'plain-503' });
    const busy = await runPlain(fixture('borealis-crm'), ports, { runId: 'plain-503' });
    expect(busy.state.failure).toMatchObject({ step: 'EXTRACT', error: expect.stringMatching(/^TransientError/) });
    expect(busy.state.delivery).toBeNull();
  });

  it('dead-letters an invalid request at VALIDATE without touching the world', async () => {
    const { state, failed } = await runPlain(
      { vendor: { name: 'X', baseUrl: 'nope' } } as unknown as ReviewRequestInput,
      createHttpPorts({ worldUrl: world.url }),
      { runId: 'plain-bad' },
    );
    expect(failed).toBe(true);
    expect(state.failure).toMatchObject({ step: 'VALIDATE', error: expect.stringContaining('vendor.baseUrl') });
    expect(world.ledger({ runId: 'plain-bad' })).toEqual([]);
  });
});
