import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseCompareArgs, UsageError } from './cli.ts';
import { fullCatalogue, selectScenarios } from './scenarios.ts';

describe('options', () => {
  it('defaults', () => {
    const o = parseCompareArgs([]);
    expect(o).toMatchObject({ repeat: 1, json: false, reportDir: 'report', keepInfra: false, concurrency: 4 });
    expect(o.crashPoints).toBeUndefined();
  });

  it('parses filters as comma lists', () => {
    const o = parseCompareArgs([
      '--runtime',
      'temporal',
      '--variant',
      'naive,hardened',
      '--crash',
      'after-model, boundary',
      '--repeat',
      '3',
      '--json',
    ]);
    expect(o.runtimes).toEqual(['temporal']);
    expect(o.crashPoints).toEqual(['after-model', 'boundary']);
    expect(o.repeat).toBe(3);
    expect(o.json).toBe(true);
  });

  it.each([
    [['--crash', 'after-lunch'], /unknown crash point "after-lunch" \(known: boundary, /],
    [['--runtime', 'airflow'], /unknown runtime "airflow"/],
    [['--repeat', '0'], /--repeat must be a whole number from 1 to 50/],
    [['--frobnicate'], /Unknown option '--frobnicate'/],
    [['--crash'], /argument missing|requires an argument|--crash/],
  ])('%j is a usage error', (argv, message) => {
    expect(() => parseCompareArgs(argv as string[])).toThrow(UsageError);
    expect(() => parseCompareArgs(argv as string[])).toThrow(message);
  });

  it('a bad option exits 2 with one line, before starting anything', () => {
    const entry = fileURLToPath(new URL('./compare.ts', import.meta.url));
    const r = spawnSync(process.execPath, ['--import', 'tsx', entry, '--crash', 'nope'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^compare: unknown crash point "nope"/);
  }, 60_000);
});

describe('catalogue', () => {
  it('every crash point × runtime × variant, LangGraph naive in three durabilities, plus four baselines', () => {
    const all = fullCatalogue();
    const baselines = all.filter((s) => s.crashPoint === null);
    expect(baselines.map((s) => s.id)).toEqual([
      'langgraph/naive/async/baseline',
      'langgraph/hardened/-/baseline',
      'temporal/naive/-/baseline',
      'temporal/hardened/-/baseline',
    ]);
    expect(all.length).toBe(4 + 8 * (3 + 1 + 1 + 1));
    expect(new Set(all.map((s) => s.id)).size).toBe(all.length);
    expect(
      all
        .filter((s) => s.crashPoint === 'mid-model' && s.runtime === 'langgraph' && s.variant === 'naive')
        .map((s) => s.durability),
    ).toEqual(['async', 'sync', 'exit']);
  });

  it('keeps the baselines a filtered selection needs', () => {
    const sel = selectScenarios({ runtimes: ['temporal'], variants: ['hardened'], crashPoints: ['after-deliver'] });
    expect(sel.map((s) => s.id)).toEqual(['temporal/hardened/-/baseline', 'temporal/hardened/-/after-deliver']);
  });
});
