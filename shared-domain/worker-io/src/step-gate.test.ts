import { describe, expect, it } from 'vitest';
import { StepGate } from './step-gate.ts';

describe('StepGate', () => {
  it('closes once the steps in flight have left, and lets no new one in', async () => {
    const gate = new StepGate();
    await gate.enter();
    await gate.enter();
    let closed = false;
    const closing = gate.close().then(() => (closed = true));
    let lateEntered = false;
    void gate.enter().then(() => (lateEntered = true));
    gate.leave();
    await Promise.resolve();
    expect(closed).toBe(false);
    gate.leave();
    await closing;
    expect([closed, lateEntered]).toEqual([true, false]);
  });

  it('closes at once when nothing is in flight', async () => {
    await expect(new StepGate().close()).resolves.toBeUndefined();
  });
});
