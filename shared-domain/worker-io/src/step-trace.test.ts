import { describe, expect, it } from 'vitest';
import type { CallMeta, Ports, StepContext } from '@vendor-review/pipeline';
import { stepTrace, traceSteps, traceWanted } from './step-trace.ts';

const meta: CallMeta = { runId: 'rev-1', step: 'EXTRACT', attempt: 1, worker: 'A' };
const ctx: StepContext = {
  run: { runId: 'rev-1', runtime: 'langgraph', runtimeId: 'thread-1' },
  step: 'EXTRACT',
  attempt: 2,
  worker: 'A',
};

function recorder() {
  const lines: string[] = [];
  return { lines, trace: stepTrace((runId, text) => lines.push(`${runId}: ${text}`)) };
}

const ports = (): Ports => ({
  web: { get: async (url) => ({ url, status: 200, title: 't', text: 'x' }) },
  model: {
    complete: async () => {
      return { text: '{}', model: 'sim-4o-mini', usage: { promptTokens: 812, completionTokens: 95 } };
    },
  },
  tracker: { note: async () => ({ id: 'note-1', duplicate: false }) },
  approver: { notify: async () => ({ id: 'ask-1', duplicate: false }) },
  mailer: {
    send: async () => {
      throw new Error('mailer down');
    },
  },
});

describe('the step trace a watched worker prints', () => {
  it('is on only when asked', () => {
    expect(traceWanted({ TRACE_STEPS: '1' })).toBe(true);
    expect(traceWanted({})).toBe(false);
  });

  it('says when a step starts and how it ended, and lets its error through', async () => {
    const { lines, trace } = recorder();
    await expect(trace.step('rev-1', 'FETCH soc2', 1, async () => 7)).resolves.toBe(7);
    await expect(
      trace.step('rev-1', 'EXTRACT soc2', 3, async () => {
        throw new TypeError('bad answer');
      }),
    ).rejects.toThrow('bad answer');
    expect(lines[0]).toBe('rev-1: FETCH soc2 started');
    expect(lines[1]).toMatch(/^rev-1: FETCH soc2 finished in \d+\.\d\d s$/);
    expect(lines[2]).toBe('rev-1: EXTRACT soc2 started (attempt 3)');
    expect(lines[3]).toMatch(/^rev-1: EXTRACT soc2 failed after \d+\.\d\d s: TypeError: bad answer$/);
  });

  it('prints a model call when it leaves and when it is answered, with its tokens', async () => {
    const { lines, trace } = recorder();
    const traced = trace.ports(ports());
    await traced.model.complete({ system: 's', user: 'u' }, meta);
    expect(lines).toEqual([
      'rev-1:   EXTRACT model call sent, waiting for the answer…',
      expect.stringMatching(
        /^rev-1: {3}EXTRACT model call answered in \d+\.\d\d s: 812 prompt \+ 95 completion tokens \(sim-4o-mini\)$/,
      ),
    ]);
    await expect(traced.mailer.send({ to: 'a@b.c', subject: 's', body: 'b' }, meta)).rejects.toThrow('mailer down');
    expect(lines.at(-1)).toBe('rev-1:   EXTRACT mail failed: Error: mailer down');
  });

  it('wraps the shared steps a runtime calls with a context, and no others', async () => {
    const { lines, trace } = recorder();
    const steps = traceSteps(
      {
        extract: async (state: { current: { requirementId: string } }, _ports: Ports, c: StepContext) =>
          `${state.current.requirementId}@${c.attempt}`,
        question: (s: string) => `${s}?`,
      },
      trace,
    );
    expect(steps.question('approve')).toBe('approve?');
    await expect(steps.extract({ current: { requirementId: 'soc2' } }, ports(), ctx)).resolves.toBe('soc2@2');
    expect(lines[0]).toBe('rev-1: EXTRACT soc2 started (attempt 2)');
    expect(lines).toHaveLength(2);
  });
});
