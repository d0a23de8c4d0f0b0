import { describe, expect, it } from 'vitest';
import { HAZARDS } from './hazards.ts';
import { hazardSeverity, harmSeverity, SEVERITIES, VERDICT_SEVERITY, worst } from './severity.ts';

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

  it('a hazard run is as bad as its verdict or what it cost, whichever is worse', () => {
    const none = { repeatedByKind: {}, sideEffectDuplicated: false };
    // A fence that acted, after the frozen call was paid four times: a paid repeat, never green.
    expect(hazardSeverity('fenced-by-runtime', { ...none, repeatedByKind: { model: 3 } })).toBe('paid');
    expect(hazardSeverity('fenced-by-lease', none)).toBe('nothing');
    expect(hazardSeverity('one-writer', { ...none, repeatedByKind: { mail: 1 } })).toBe('read');
    expect(hazardSeverity('rode-it-out', { ...none, sideEffectDuplicated: true })).toBe('effect');
    expect(hazardSeverity('lost-and-said-so', none)).toBe('lost');
    expect(hazardSeverity('no-such-verdict', none)).toBeNull();
    expect(harmSeverity({ ...none, lost: true })).toBe('lost');
  });

  it('a woken worker nobody stopped is coloured by the risk, not as a fence, even when it did no harm this time', () => {
    for (const v of ['died-on-waking', 'not-fenced', 'repeated-the-takeover', 'late-write-accepted'])
      expect(VERDICT_SEVERITY[v], v).toBe('effect');
  });
});
