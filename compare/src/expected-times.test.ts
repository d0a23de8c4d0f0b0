import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectedTimes, RECORDED_TIMES, rowTimes } from './expected-times.ts';

const shipped = {
  'retention/journal/naive': 30_000,
  'retention/checkpointer/naive': 2_000,
  'retention/step-table/naive': 2_400,
  'checkpointer/naive/async/boundary': 1_800,
};

function reportDir(rows: unknown[]): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'expected-times-'));
  writeFileSync(path.join(dir, 'results.json'), JSON.stringify({ rows }));
  return dir;
}

describe('expected times: the order rows start in', () => {
  it('a first run takes the recorded default run; a row it does not list, its hazard’s median there', () => {
    const e = expectedTimes(reportDir([]), shipped);
    expect(e.hazard('retention/journal/naive', 'retention')).toBe(30_000);
    expect(e.hazard('retention/acme/naive', 'retention')).toBe(2_400);
    expect(e.hazard('zombie/acme/naive', 'zombie')).toBeNull();
    expect(e.cell('checkpointer/naive/async/boundary')).toBe(1_800);
  });

  it('the last report in the same folder comes first', () => {
    const dir = reportDir([
      { suite: 'production', scenario: 'retention', runtime: 'journal', variant: 'naive', wallMs: 12_000 },
      { suite: 'crash', cellId: 'checkpointer/naive/async/boundary', cellWallMs: { median: 900 } },
    ]);
    const e = expectedTimes(dir, shipped);
    expect(e.hazard('retention/journal/naive', 'retention')).toBe(12_000);
    expect(e.cell('checkpointer/naive/async/boundary')).toBe(900);
  });

  it('the recorded file is a default run’s rows, each with a wall time', () => {
    const recorded = JSON.parse(readFileSync(RECORDED_TIMES, 'utf8')) as Record<string, number>;
    expect(Object.keys(recorded).length).toBeGreaterThan(100);
    expect(Object.values(recorded).every((ms) => Number.isFinite(ms) && ms >= 0)).toBe(true);
    expect(rowTimes(path.join(os.tmpdir(), 'no-such-folder', 'results.json'))).toEqual({});
  });
});
