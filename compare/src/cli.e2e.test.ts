import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultConcurrency, parseCompareArgs, UsageError } from './cli.ts';
import { crashCatalogue } from '@vendor-review/conformance';
import { RUNTIME_NAMES, runtimeInfos } from './runtimes.ts';

describe('options', () => {
  it('runs two cells per core by default, from 4 to 16', () => {
    expect([1, 2, 3, 4, 8, 16].map((cores) => defaultConcurrency(cores))).toEqual([4, 4, 6, 8, 16, 16]);
  });

  it('defaults', () => {
    const o = parseCompareArgs([]);
    expect(o).toMatchObject({
      json: false,
      reportDir: 'report',
      keepInfra: false,
      concurrency: defaultConcurrency(),
      clean: false,
    });
    // Unset: once per cell; with --full, more for cells whose outcome depends on timing (distributionRepeats).
    expect(o.repeat).toBeUndefined();
    expect(o.crashPoints).toBeUndefined();
    expect(o.modelUpstream).toBeUndefined();
  });

  it('--model-upstream takes the model from OPENAI_MODEL, never the key', () => {
    const o = parseCompareArgs(['--model-upstream', 'http://127.0.0.1:9/v1'], {
      OPENAI_MODEL: 'gpt-4o-mini',
      OPENAI_API_KEY: 'sk-secret',
    });
    expect(o.modelUpstream).toEqual({ baseUrl: 'http://127.0.0.1:9/v1', model: 'gpt-4o-mini' });
    expect(JSON.stringify(o)).not.toContain('sk-secret');
    expect(() => parseCompareArgs(['--model-upstream', 'http://127.0.0.1:9/v1'], {})).toThrow(
      /--model-upstream needs OPENAI_MODEL/,
    );
    expect(() => parseCompareArgs(['--model-upstream', 'not a url'], { OPENAI_MODEL: 'm' })).toThrow(UsageError);
    expect(parseCompareArgs(['--clean']).clean).toBe(true);
  });

  it('the granularity suite is opt-in, and takes its node sizes as a comma list', () => {
    expect(parseCompareArgs([]).suites).toEqual(['crash', 'production']);
    const o = parseCompareArgs(['--suite', 'granularity', '--granularity', 'coarse,fine']);
    expect([o.suites, o.granularities]).toEqual([['granularity'], ['coarse', 'fine']]);
    expect(() => parseCompareArgs(['--granularity', 'per-call'])).toThrow(/unknown granularity "per-call"/);
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
  it('every crash point in every configuration of every runtime, plus a baseline per runtime and variant', async () => {
    const all = crashCatalogue(await runtimeInfos(RUNTIME_NAMES));
    const baselines = all.filter((s) => s.crashPoint === null);
    expect(baselines.map((s) => s.id)).toEqual([
      'langgraph/naive/async/baseline',
      'langgraph/hardened/-/baseline',
      'langgraph-functional/naive/async/baseline',
      'langgraph-functional/hardened/-/baseline',
      'temporal/naive/-/baseline',
      'temporal/hardened/-/baseline',
      'dbos/naive/-/baseline',
      'dbos/hardened/-/baseline',
      'restate/naive/-/baseline',
      'restate/hardened/-/baseline',
      'plain/naive/-/baseline',
      'plain/hardened/-/baseline',
    ]);
    // Both LangGraph APIs naive in three durabilities and hardened; Temporal, DBOS, Restate and plain in two variants each;
    // and mid-commit, inside our saver's commit, for the StateGraph's four configurations only.
    expect(all.length).toBe(12 + 8 * (4 + 4 + 2 + 2 + 2 + 2) + 4);
    expect(new Set(all.map((s) => s.id)).size).toBe(all.length);
  });
});
