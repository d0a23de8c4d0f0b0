import { describe, expect, it } from 'vitest';
import { DEFAULT_HAZARDS, HAZARD_SECTIONS, HAZARDS, LESSON_HAZARDS } from './hazards.ts';

describe('the hazard catalogue’s verdicts', () => {
  const texts = Object.entries(HAZARDS).flatMap(([id, h]) =>
    Object.entries(h.verdicts as Record<string, string>).map(([v, text]) => ({ at: `${id}: ${v}`, text })),
  );

  it('claim no mechanism by a runtime’s name: a verdict is shared by every runtime that reaches it', () => {
    const named = texts.filter((t) => /LangGraph|Temporal|DBOS|patched\(\)/.test(t.text)).map((t) => t.at);
    expect(named).toEqual([]);
  });

  it('a zombie verdict names who stopped the woken worker, or says nobody did', () => {
    for (const id of ['zombie', 'zombie-at-effect'] as const) {
      const verdicts: Record<string, string> = HAZARDS[id].verdicts;
      expect(Object.keys(verdicts)).not.toContain('fenced');
      expect(verdicts['fenced-by-runtime']).toMatch(/^the runtime stopped/);
      expect(verdicts['fenced-by-lease']).toMatch(/^our lease’s fencing token stopped/);
      for (const v of ['late-write-accepted', 'repeated-the-takeover', 'died-on-waking', 'not-fenced'])
        expect(verdicts[v], v).toMatch(/^nobody stopped the woken worker/);
    }
  });

  it('one writer and riding out a restart claim no refusal or retry the record may not show', () => {
    expect(HAZARDS['two-writers'].verdicts['one-writer']).not.toMatch(/was refused,|got no task/);
    expect(HAZARDS['restart-postgres'].verdicts['rode-it-out']).not.toMatch(/was tried again once/);
  });
});

describe('the default run: one hazard per lesson', () => {
  it("each lesson's hazard belongs to that lesson, and every lesson has one", () => {
    expect(Object.keys(LESSON_HAZARDS).sort()).toEqual(Object.keys(HAZARD_SECTIONS).sort());
    for (const [section, { hazard }] of Object.entries(LESSON_HAZARDS)) expect(HAZARDS[hazard].section).toBe(section);
    expect(DEFAULT_HAZARDS).toHaveLength(Object.keys(HAZARD_SECTIONS).length);
  });
});
