import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyApproval,
  applyUpdate,
  approvalQuestion,
  deliver,
  deriveIdempotencyKey,
  discover,
  draft,
  draftAndDeliver,
  extract,
  fetchPage,
  hasMoreRequirements,
  initialState,
  researchRequirement,
  saveProgress,
  selectPage,
  selectRequirement,
  validate,
  verify,
  type Ports,
  type ReviewState,
  type StateUpdate,
  type StepContext,
  type StepName,
} from '@vendor-review/pipeline';
import { createHttpPorts } from '@vendor-review/worker-io';
import { startWorld, vendorRequest, type World } from '@vendor-review/world';
import { stepInput, type StateStep } from './step-input.ts';

/**
 * The hardened workflow hands each activity a slice of the state. A slice is right only if the
 * step computes exactly what it computes from the whole state: run a whole review against the
 * world, and at every step compare the two. Side effects carry a key, so the second call of a
 * pair is the receiver's duplicate of the first and returns the same receipt.
 */
let world: World;
let ports: Ports;
beforeAll(async () => {
  world = await startWorld({ modelLatencyMs: 0, pageLatencyMs: 0 });
  ports = createHttpPorts({ worldUrl: world.url });
});
afterAll(() => world.stop());

const ctx = (step: StepName, ...key: string[]): StepContext => ({
  run: { runId: 'rev-slice-1', runtime: 'temporal', runtimeId: 'wf-slice-1' },
  step,
  attempt: 1,
  worker: 'T',
  idempotencyKey: deriveIdempotencyKey('rev-slice-1', step, ...key),
});

/** The duplicate flag says which of the two calls came second; the receipt is the same. */
const sameReceipt = (u: StateUpdate) => (u.delivery ? { ...u, delivery: { ...u.delivery, duplicate: false } } : u);

describe('stepInput: each step computes from its slice what it computes from the whole state', () => {
  it('over a whole review of six requirements, with sizes that shrink', async () => {
    let state = initialState('rev-slice-1', vendorRequest('acme-analytics', world.url) as ReviewState['request']);
    const shrunk: Record<string, number[]> = {};
    const both = async (
      step: StateStep,
      run: (s: ReviewState) => Promise<StateUpdate>,
      url?: string,
    ): Promise<StateUpdate> => {
      const slice = stepInput(step, state, 'slice', url);
      const fromSlice = await run(slice);
      const fromWhole = await run(stepInput(step, state, 'whole', url));
      expect(sameReceipt(fromSlice), step).toEqual(sameReceipt(fromWhole));
      (shrunk[step] ??= []).push(JSON.stringify(slice).length / JSON.stringify(state).length);
      return fromWhole;
    };
    const merge = (u: StateUpdate) => (state = applyUpdate(state, u));

    merge(await both('validate', (s) => validate(s, ports, ctx('VALIDATE'))));
    merge(await both('discover', (s) => discover(s, ports, ctx('DISCOVER'))));
    while (hasMoreRequirements(state)) {
      merge(await both('selectRequirement', (s) => selectRequirement(s, ports, ctx('SELECT_REQUIREMENT'))));
      const req = state.current!.requirementId;
      merge(await both('selectPage', (s) => selectPage(s, ports, ctx('SELECT_PAGE', req))));
      const candidates = state.current!.candidates;
      const before = state;
      const pages: StateUpdate[] = [];
      for (const [index, url] of candidates.entries()) {
        state = before;
        const target = { url, index, of: candidates.length };
        pages.push(await both('fetchPage', (s) => fetchPage(s, ports, ctx('FETCH', req, url), target), url));
      }
      state = before;
      pages.forEach(merge);
      merge(await both('extract', (s) => extract(s, ports, ctx('EXTRACT', req))));
      merge(await both('verify', (s) => verify(s, ports, ctx('VERIFY', req))));
      merge(await both('saveProgress', (s) => saveProgress(s, ports, ctx('SAVE_PROGRESS', req))));
    }
    merge(await both('draft', (s) => draft(s, ports, ctx('DRAFT'))));
    expect(approvalQuestion(stepInput('requestApproval', state, 'slice'))).toEqual(approvalQuestion(state));
    const decision = { approved: true, by: 'test' };
    merge(await both('applyApproval', async (s) => applyApproval(s, decision)));
    merge(await both('deliver', (s) => deliver(s, ports, ctx('DELIVER'))));

    expect(Object.keys(state.verdicts)).toHaveLength(6);
    // Late in the run the per-requirement steps carry a small part of the state.
    for (const step of ['fetchPage', 'extract', 'verify', 'saveProgress'])
      expect(shrunk[step]!.at(-1), step).toBeLessThan(0.5);
  });

  it('the stages of the coarser granularities too: a requirement, and the draft with its mail', async () => {
    const runId = 'rev-slice-2';
    let state = initialState(runId, vendorRequest('borealis-crm', world.url) as ReviewState['request']);
    const o = {
      contextFor: (step: StepName, keyParts: string[]): StepContext => ({
        ...ctx(step),
        run: { runId, runtime: 'temporal', runtimeId: 'wf-slice-2' },
        idempotencyKey: deriveIdempotencyKey(runId, step, ...keyParts),
      }),
    };
    const both = async (step: StateStep, run: (s: ReviewState) => Promise<StateUpdate>) => {
      const fromSlice = await run(stepInput(step, state, 'slice'));
      const fromWhole = await run(stepInput(step, state, 'whole'));
      expect(sameReceipt(fromSlice), step).toEqual(sameReceipt(fromWhole));
      state = applyUpdate(state, fromWhole);
    };
    expect(stepInput('review', state, 'slice')).toBe(state);
    await both('validate', (s) => validate(s, ports, o.contextFor('VALIDATE', [])));
    await both('discover', (s) => discover(s, ports, o.contextFor('DISCOVER', [])));
    while (hasMoreRequirements(state)) await both('researchRequirement', (s) => researchRequirement(s, ports, o));
    state = applyUpdate(state, applyApproval(state, { approved: true, by: 'test' }));
    await both('send', (s) => draftAndDeliver(s, ports, o));
    expect(state.delivery?.to).toBe(state.request.requester.email);
    expect(Object.keys(state.verdicts)).toHaveLength(state.request.requirements.length);
  });

  it('whole passes the state itself, untouched', () => {
    const s = initialState('rev-x', vendorRequest('acme-analytics', 'http://w') as ReviewState['request']);
    expect(stepInput('extract', s, 'whole')).toBe(s);
  });
});
