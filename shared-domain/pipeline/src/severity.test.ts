import { describe, expect, it } from 'vitest';
import { HAZARDS } from './hazards.ts';
import { SEVERITIES, VERDICT_SEVERITY, worst } from './severity.ts';

describe('the scorecard scale', () => {
  it('places every verdict of every hazard', () => {
    const missing = Object.entries(HAZARDS).flatMap(([id, h]) =>
      Object.keys(h.verdicts)
        .filter((v) => !(v in VERDICT_SEVERITY))
        .map((v) => `${id}: ${v}`),
    );
    expect(missing).toEqual([]);
  });

  it('the worst of several is the furthest along the scale', () => {
    expect(worst(['read', 'lost', 'paid'])).toBe('lost');
    expect(worst(['nothing', 'paid'])).toBe('paid');
    expect(worst([])).toBe(SEVERITIES[0]);
  });
});
