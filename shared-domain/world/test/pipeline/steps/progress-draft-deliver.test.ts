import { describe, expect, it } from 'vitest';
import {
  reviewDigest,
  applyUpdate,
  type ReviewState,
  type Verdict,
  applyApproval,
  approvalQuestion,
  deadLetter,
  composeDelivery,
  deliver,
  draft,
  saveProgress,
} from '@vendor-review/pipeline';
import { fakePorts } from '../../../src/fake-ports.ts';
import { freshState, stateThrough, testCtx } from '../../../src/sample-state.ts';

const verdict = (requirementId: string, status: Verdict['status']): Verdict => ({
  requirementId,
  status,
  evidence: [],
  confidence: 0.6,
});

/** A state with every verdict in, as DRAFT sees it. */
function judged(): ReviewState {
  const s = freshState('borealis-crm');
  const statuses = {
    pricing: 'missing',
    soc2: 'denied',
    sso: 'confirmed',
    'data-residency': 'confirmed',
    dpa: 'contradictory',
    'uptime-sla': 'confirmed',
  } as const;
  return { ...s, verdicts: Object.fromEntries(Object.entries(statuses).map(([id, st]) => [id, verdict(id, st)])) };
}

describe('SAVE_PROGRESS', () => {
  it('notes the verdict in the tracker with the step key, then retires the requirement', async () => {
    const state = await stateThrough('acme-analytics', 'VERIFY', 'sso');
    const ports = fakePorts();
    const update = await saveProgress(state, ports, testCtx('SAVE_PROGRESS', { idempotencyKey: 'key-sso' }));
    expect(update).toEqual({
      progressNotes: { sso: 'note-1' },
      pending: state.pending.filter((id) => id !== 'sso'),
      current: null,
    });
    const call = ports.calls.find((c) => c.kind === 'tracker')!;
    expect(call).toMatchObject({
      note: { runId: 'rev-test-1', requirementId: 'sso' },
      meta: { idempotencyKey: 'key-sso', step: 'SAVE_PROGRESS' },
    });
    expect(call.kind === 'tracker' && call.note.text).toMatch(
      /sso: contradictory \(confidence 0\.50\); sources: \/vendors\/acme-analytics\/security, \/vendors\/acme-analytics\/pricing/,
    );
  });

  it('refuses to save a requirement that has no verdict yet', async () => {
    const state = await stateThrough('acme-analytics', 'EXTRACT', 'sso');
    await expect(saveProgress(state, fakePorts(), testCtx('SAVE_PROGRESS'))).rejects.toMatchObject({
      name: 'PermanentError',
      code: 'no-verdict',
    });
  });
});

describe('DRAFT', () => {
  it('writes the same review from the same state: title, model summary, exact verdict table', async () => {
    const a = await draft(judged(), fakePorts(), testCtx('DRAFT'));
    const b = await draft(judged(), fakePorts(), testCtx('DRAFT'));
    expect(a).toEqual(b);
    expect(a.draft!.text).toMatch(/^# Vendor review: Borealis CRM\n/);
    expect(a.draft!.text).toContain('3 confirmed, 1 denied, 1 contradictory and 1 missing');
    expect(a.draft!.text).toContain('| dpa | contradictory | 0.60 | - |');
    expect(reviewDigest(applyUpdate(judged(), a))).toBe(reviewDigest(applyUpdate(judged(), b)));
  });

  it('refuses to draft before every requirement has a verdict', async () => {
    const s = judged();
    const { dpa: _dropped, ...rest } = s.verdicts;
    await expect(draft({ ...s, verdicts: rest }, fakePorts(), testCtx('DRAFT'))).rejects.toMatchObject({
      name: 'PermanentError',
      code: 'draft-too-early',
    });
  });

  it('makes the digest follow the verdicts', () => {
    const s = judged();
    const changed = { ...s, verdicts: { ...s.verdicts, dpa: verdict('dpa', 'confirmed') } };
    expect(reviewDigest(changed)).not.toBe(reviewDigest(s));
  });
});

describe('AWAIT_APPROVAL and DELIVER', () => {
  it('asks a question that counts the verdicts and records the answer', () => {
    const q = approvalQuestion(judged());
    expect(q).toMatchObject({ runId: 'rev-test-1', vendor: 'Borealis CRM' });
    expect(q.summary).toContain('3 confirmed, 1 denied, 1 contradictory, 1 missing');
    expect(applyApproval(judged(), { approved: false, by: 'dana', note: 'not yet' })).toEqual({
      approval: { approved: false, by: 'dana', note: 'not yet' },
    });
  });

  it('mails the approved draft to the requester, once per key', async () => {
    let s = judged();
    s = applyUpdate(s, await draft(s, fakePorts(), testCtx('DRAFT')));
    s = applyUpdate(s, applyApproval(s, { approved: true, by: 'dana' }));
    const mail = composeDelivery(s);
    expect(mail).toMatchObject({ to: 'priya.raman@example.com', subject: 'Vendor review: Borealis CRM [rev-test-1]' });
    expect(mail.body).toContain(s.draft!.text);
    const ports = fakePorts();
    const first = await deliver(s, ports, testCtx('DELIVER', { idempotencyKey: 'mail-key' }));
    const again = await deliver(s, ports, testCtx('DELIVER', { idempotencyKey: 'mail-key', attempt: 2 }));
    expect(first.delivery).toEqual({ messageId: 'msg-1', duplicate: false, to: 'priya.raman@example.com' });
    expect(again.delivery).toEqual({ messageId: 'msg-1', duplicate: true, to: 'priya.raman@example.com' });
  });

  it('will not mail without a draft, nor a rejected review', () => {
    expect(() => composeDelivery(judged())).toThrow(expect.objectContaining({ code: 'no-draft' }));
    const rejected = { ...judged(), draft: { text: 'x', model: 'm' }, approval: { approved: false, by: 'dana' } };
    expect(() => composeDelivery(rejected)).toThrow(expect.objectContaining({ code: 'rejected' }));
  });

  it('dead-letters with the step, the error, the attempts and the input', () => {
    const update = deadLetter({ step: 'FETCH', error: new TypeError('boom'), attempts: 3, input: { url: 'u' } });
    expect(update.failure).toEqual({ step: 'FETCH', error: 'TypeError: boom', attempts: 3, input: { url: 'u' } });
  });
});
