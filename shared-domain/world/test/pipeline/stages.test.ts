import { describe, expect, it } from 'vitest';
import { FAKE_ORIGIN, fakePorts } from '../../src/fake-ports.ts';
import { vendorRequest } from '../../src/requests.ts';
import { freshState, stateThrough, testCtx } from '../../src/sample-state.ts';
import {
  runPlain,
  draftAndDeliver,
  researchAll,
  researchRequirement,
  type StageOptions,
  applyUpdate,
  type ReviewState,
  applyApproval,
  deriveIdempotencyKey,
  type StepName,
} from '@vendor-review/pipeline';

/** Contexts as the fine graph would give its nodes: the key from the run, the step and its parts. */
function keyed(seen: { step: StepName; keyParts: string[] }[] = []): StageOptions {
  return {
    contextFor: (step, keyParts) => {
      seen.push({ step, keyParts });
      return testCtx(step, { idempotencyKey: deriveIdempotencyKey('rev-test-1', step, ...keyParts) });
    },
  };
}

describe('stages: the shared steps, several to one boundary', () => {
  it('researchAll leaves the state the steps leave one by one (the plain runner), with the same calls', async () => {
    const ports = fakePorts();
    const state = applyUpdate(
      freshState('acme-analytics'),
      await researchAll(freshState('acme-analytics'), ports, keyed()),
    );
    const plainPorts = fakePorts();
    const plain = await runPlain(vendorRequest('acme-analytics', FAKE_ORIGIN), plainPorts, { runId: 'rev-test-1' });
    const research = (s: ReviewState) => ({
      pending: s.pending,
      pages: s.pages,
      fetched: s.fetched,
      findings: s.findings,
      verdicts: s.verdicts,
      notes: Object.keys(s.progressNotes),
    });
    expect(research(state)).toEqual(research(plain.state));
    const kinds = (calls: { kind: string }[]) =>
      calls.map((c) => c.kind).filter((k) => k !== 'mail' && k !== 'approver');
    // The plain runner also drafts: one model call more.
    expect(kinds(ports.calls)).toEqual(kinds(plainPorts.calls).slice(0, -1));
    expect(state.current).toBeNull();
  });

  it('gives every step inside the key the fine graph gives it: per requirement, per page', async () => {
    const seen: { step: StepName; keyParts: string[] }[] = [];
    const ports = fakePorts();
    await researchAll(freshState('acme-analytics'), ports, keyed(seen));
    const notes = ports.calls.filter((c) => c.kind === 'tracker');
    expect(new Set(notes.map((c) => c.meta.idempotencyKey)).size).toBe(notes.length);
    expect(notes[0]!.meta.idempotencyKey).toBe(deriveIdempotencyKey('rev-test-1', 'SAVE_PROGRESS', 'pricing'));
    const fetches = seen.filter((s) => s.step === 'FETCH');
    expect(fetches.every((f) => f.keyParts.length === 2 && f.keyParts[1]!.startsWith(FAKE_ORIGIN))).toBe(true);
  });

  it('researchRequirement retires exactly one requirement', async () => {
    let s = await stateThrough('borealis-crm', 'DISCOVER');
    const before = s.pending;
    s = applyUpdate(s, await researchRequirement(s, fakePorts(), keyed()));
    expect(s.pending).toEqual(before.slice(1));
    expect(Object.keys(s.verdicts)).toEqual([before[0]]);
    expect(Object.keys(s.progressNotes)).toEqual([before[0]]);
  });

  it('draftAndDeliver writes the draft and mails it from the same boundary, with the DELIVER key', async () => {
    let s = freshState('acme-analytics');
    s = applyUpdate(s, await researchAll(s, fakePorts(), keyed()));
    s = applyUpdate(s, applyApproval(s, { approved: true, by: 'dana' }));
    const ports = fakePorts();
    s = applyUpdate(s, await draftAndDeliver(s, ports, keyed()));
    const mail = ports.calls.find((c) => c.kind === 'mail');
    expect(mail?.kind === 'mail' && mail.mail.body).toContain(s.draft!.text);
    expect(mail?.meta.idempotencyKey).toBe(deriveIdempotencyKey('rev-test-1', 'DELIVER'));
    expect(s.delivery).toMatchObject({ duplicate: false, to: s.request.requester.email });
  });

  it('tells which step it is in, so a failure inside a stage can be named', async () => {
    const steps: StepName[] = [];
    const ports = fakePorts({ model: () => 'not json' });
    const err = await researchAll(freshState('acme-analytics'), ports, {
      ...keyed(),
      onStep: (step) => steps.push(step),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(steps.at(-1)).toBe('EXTRACT');
  });
});
