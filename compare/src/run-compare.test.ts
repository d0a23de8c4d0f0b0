import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exitFor } from '@vendor-review/worker-io';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseCompareArgs, USAGE } from './cli.ts';
import type { Infra } from './infra.ts';
import { NO_OBSERVER } from './observer.ts';
import type { CompareOptions } from './options.ts';
import { validateResults } from './report/results-schema.ts';
import { etaOf, observedBy, runCompare, runSuites, selectSuites, type Planned } from './run-compare.ts';
import { SUITES } from './suites/index.ts';
import type { Lanes, Suite, SuitePlan } from './suites/suite.ts';

/**
 * The comparison as a loop over suites: a suite no shipped file names, registered here, plans, runs
 * and reports through the same loop as the shipped ones, and its rows reach the terminal table,
 * results.json and report.html.
 */
const FakeRowSchema = z.object({
  suite: z.literal('fake'),
  status: z.enum(['ran', 'error']),
  what: z.string(),
  runtime: z.string(),
});
type FakeRow = z.infer<typeof FakeRowSchema>;

interface FakePlan extends SuitePlan {
  runtimes: string[];
}

function fakeSuite(o: { phase?: Suite['phase']; status?: FakeRow['status']; log?: string[] } = {}) {
  const suite: Suite<FakePlan, string, FakeRow> = {
    name: 'fake',
    about: 'a suite no shipped file names',
    byDefault: false,
    phase: o.phase ?? 'lead',
    rowSchema: FakeRowSchema,
    plan: (_options, runtimes) => ({
      runtimes: runtimes.map((r) => r.name),
      expectedMs: runtimes.map(() => 1_000),
      summary: `${runtimes.length} fake runs`,
    }),
    run: async (plan, lanes) => {
      o.log?.push('fake ran');
      const rows = plan.runtimes.map((runtime) => ({
        suite: 'fake' as const,
        status: o.status ?? 'ran',
        what: `the fake row of ${lanes.labelOf(runtime)}`,
        runtime,
      }));
      return { rows, observations: plan.runtimes.map((r) => `observed ${r}`) };
    },
    sections: (rows, { observations }) =>
      rows.length
        ? [
            {
              heading: 'The fake suite',
              id: 'fake',
              blocks: [
                {
                  kind: 'table',
                  table: {
                    columns: [{ title: 'fake row' }, { title: 'status' }],
                    rows: rows.map((r) => ({ cells: [r.what, r.status] })),
                  },
                },
                ...observations.map((text) => ({ kind: 'paragraph' as const, only: ['html' as const], text })),
              ],
            },
          ]
        : [],
    tally: (rows) => `${rows.length} fake rows`,
  };
  return suite;
}

/** Infrastructure nobody started: the fake suite runs nothing on it. */
const NO_INFRA = {
  worldUrl: 'http://127.0.0.1:9',
  servers: new Map(),
  runtimes: new Map(),
  describe: () => ({
    world: 'no world',
    model: 'no model',
    postgres: 'no PostgreSQL',
    servers: [],
    restartHazards: null,
    built: [],
  }),
  teardown: async () => undefined,
} as unknown as Infra;

function options(o: Partial<CompareOptions> = {}): CompareOptions {
  return {
    suites: ['fake'],
    runtimes: ['plain'],
    json: false,
    reportDir: mkdtempSync(path.join(os.tmpdir(), 'compare-fake-suite-')),
    keepInfra: false,
    concurrency: 2,
    boundSeconds: 10,
    ...o,
  };
}

describe('a suite registered beside the shipped ones', () => {
  it('its rows are in the terminal table, results.json (valid against the contract) and report.html', async () => {
    const fake = fakeSuite();
    const registry = [...SUITES, fake];
    const lines: string[] = [];
    const run = await runCompare(options(), {
      log: (l) => lines.push(l),
      color: false,
      infra: NO_INFRA,
      suites: registry,
    });

    expect(lines[0]).toBe('compare: 1 fake runs (plain), concurrency 2; starting infrastructure…');
    expect(run.results.rows).toEqual([
      { suite: 'fake', status: 'ran', what: 'the fake row of plain', runtime: 'plain' },
    ]);
    expect(run.table).toContain('the fake row of plain');
    expect(run.table).toMatch(/^The fake suite/m);

    const json: unknown = JSON.parse(readFileSync(run.files.json, 'utf8'));
    expect(() =>
      validateResults(
        json,
        registry.map((s) => s.rowSchema),
      ),
    ).not.toThrow();
    expect((json as { rows: unknown[] }).rows).toEqual(run.results.rows);
    // The shipped contract does not know the fake suite's rows.
    expect(() =>
      validateResults(
        json,
        SUITES.map((s) => s.rowSchema),
      ),
    ).toThrow(/rows\.0\.suite/);

    const html = readFileSync(run.files.html, 'utf8');
    expect(html).toContain('the fake row of plain');
    expect(html).toContain('observed plain');
    expect(readFileSync(run.files.md, 'utf8')).toContain('0 crash cells · 0 production hazard rows · 1 fake rows');

    expect(observedBy(run, fake)).toEqual(['observed plain']);
    expect(run.exitCode).toBe(0);
    expect(run.profile).toBeNull();
  });

  it('a row that could not run makes the exit code 1', async () => {
    const fake = fakeSuite({ status: 'error' });
    const run = await runCompare(options(), {
      log: () => undefined,
      color: false,
      infra: NO_INFRA,
      suites: [...SUITES, fake],
    });
    expect([run.exitCode, run.results.meta.notRun]).toEqual([1, 1]);
  });

  it('--profile asks the profiler for where the time went, and writes it beside the report', async () => {
    const run = await runCompare(options({ profile: true }), {
      log: () => undefined,
      color: false,
      infra: NO_INFRA,
      suites: [...SUITES, fakeSuite()],
    });
    expect(run.profile).toMatch(/^Where the time went/);
    expect(run.files.profile && readFileSync(run.files.profile, 'utf8')).toMatch(/^# Where the time went/);
  });
});

describe('the suite loop', () => {
  it('runs the alone suites first, one after the other, then the lead ones with those beside them', async () => {
    const events: string[] = [];
    const suite = (name: string, phase: Suite['phase']): Suite => ({
      ...fakeSuite({ phase }),
      name,
      run: async (_plan, lanes) => {
        events.push(`${name} starts`);
        if (phase === 'beside') {
          await lanes.quiet;
          events.push(`${name} told the lead is done`);
        } else await new Promise((resolve) => setTimeout(resolve, 10));
        events.push(`${name} ends`);
        return { rows: [], observations: [] };
      },
    });
    const planned: Planned[] = [
      suite('lead', 'lead'),
      suite('beside', 'beside'),
      suite('alone 1', 'alone'),
      suite('alone 2', 'alone'),
    ].map((s) => ({ suite: s, plan: { expectedMs: [], summary: null } }));
    const runs = await runSuites(planned, {} as Omit<Lanes, 'quiet'>, NO_OBSERVER);
    expect(events).toEqual([
      'alone 1 starts',
      'alone 1 ends',
      'alone 2 starts',
      'alone 2 ends',
      'beside starts',
      'lead starts',
      'lead ends',
      'beside told the lead is done',
      'beside ends',
    ]);
    expect([...runs.keys()].map((s) => s.name)).toEqual(['alone 1', 'alone 2', 'lead', 'beside']);
  });

  it('expects each run as a past run measured it, and one none measured as the typical run', () => {
    expect(etaOf([{ expectedMs: [1_000, null] }, { expectedMs: [3_000, null, null] }])).toEqual({
      runs: 5,
      typicalMs: 2_000,
      totalMs: 1_000 + 3_000 + 3 * 2_000,
    });
    expect(etaOf([{ expectedMs: [null, null] }, { expectedMs: [] }])).toEqual({
      runs: 2,
      typicalMs: 3_000,
      totalMs: 6_000,
    });
  });

  it('takes the suites in the registry’s order, whatever the order asked', () => {
    expect(selectSuites(SUITES, ['window', 'crash']).map((s) => s.name)).toEqual(['crash', 'window']);
  });
});

describe('--suite', () => {
  it('names the registry’s suites in --help, and runs those that say so by default', () => {
    expect(USAGE).toContain(`--suite    ${SUITES.map((s) => s.name).join(',')}`);
    expect(parseCompareArgs([]).suites).toEqual(SUITES.filter((s) => s.byDefault).map((s) => s.name));
  });

  it('an unknown name is a usage mistake: exit 2, one line naming the known ones', () => {
    let err: unknown;
    try {
      parseCompareArgs(['--suite', 'crash,nope']);
    } catch (e) {
      err = e;
    }
    const { code, stream, text } = exitFor('compare', err);
    expect([code, stream]).toEqual([2, 'stderr']);
    expect(text.split('\n')).toEqual([
      `compare: unknown suite "nope" (known: ${SUITES.map((s) => s.name).join(', ')}) (see --help)`,
    ]);
    expect(() => selectSuites(SUITES, ['nope'])).toThrow(/^unknown suite "nope" \(known: crash, production/);
  });
});
