/**
 * The numbers cannot be changed by the user's shell, and a real model is still counted. The harness
 * runs with settings that would send a worker's model calls past the world (OPENAI_BASE_URL to
 * nowhere, an unknown OPENAI_MODEL / MODEL, LangSmith tracing on) exported in its own environment,
 * and with `--model-upstream` pointing at a second world playing the provider: every model call of
 * every worker is in the ledger, forwarded with the configured model and priced at its price, and
 * the report says which settings were in force and which were kept from the workers.
 */
import { readFileSync } from 'node:fs';
import { startWorld, costUsd, type World } from '@vendor-review/world';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observedBy, type RunCompareResult } from '../src/run-compare.ts';
import { crashSuite } from '../src/suites/crash.ts';
import { crashRows } from '../src/report/results.ts';
import { compareForTest } from './user-database.ts';

const HOSTILE = {
  OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
  OPENAI_API_KEY: 'sk-from-the-shell',
  MODEL: 'no-such-model',
  LANGSMITH_TRACING: 'true',
  LANGSMITH_API_KEY: 'ls-from-the-shell',
};
const saved = Object.fromEntries(Object.keys(HOSTILE).map((k) => [k, process.env[k]]));
let provider: World;
let run: RunCompareResult;

beforeAll(async () => {
  provider = await startWorld({ modelLatencyMs: 0 });
  Object.assign(process.env, HOSTILE, { OPENAI_MODEL: 'sim-4o' });
  run = await compareForTest({
    suites: ['crash'],
    runtimes: ['plain', 'langgraph'],
    variants: ['naive'],
    crashPoints: ['after-model'],
    durabilities: ['sync'],
    repeat: 1,
    modelUpstream: { baseUrl: `${provider.url}/v1`, model: 'sim-4o' },
  });
}, 240_000);

afterAll(async () => {
  for (const [k, v] of Object.entries(saved))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  delete process.env.OPENAI_MODEL;
  await provider?.stop();
});

describe('outside settings', () => {
  it('change nothing a worker does: every cell completes and the ledger counts every model call', () => {
    const rows = crashRows(run.results);
    expect(rows.map((r) => `${r.cellId} ${r.status}`)).toEqual(rows.map((r) => `${r.cellId} completed`));
    for (const obs of observedBy(run, crashSuite)) {
      const model = obs.ledger.filter((e) => e.kind === 'model');
      expect(model.length, obs.scenario.id).toBeGreaterThanOrEqual(2);
      // Forwarded to the provider with the configured model, priced at that model's price.
      for (const e of model) {
        expect(e.model).toBe('sim-4o');
        expect(e.costUsd).toBe(costUsd('sim-4o', e.promptTokens, e.completionTokens));
      }
    }
    const counted = observedBy(run, crashSuite).flatMap((o) =>
      o.ledger.filter((e) => e.kind === 'model' && e.outcome === 'ok'),
    );
    expect(provider.ledger({ kind: 'model' }).filter((e) => e.outcome === 'ok')).toHaveLength(counted.length);
  });

  it('are in the report: what was in force (secrets masked) and what the workers did not get', () => {
    const { environment, infrastructure } = run.results.meta;
    expect(infrastructure.model).toMatch(
      /^sim-4o at http:\/\/127\.0\.0\.1:\d+\/v1 \(forwarded and counted by the world; priced \$2\.5\/\$10/,
    );
    expect(environment.inForce).toEqual(
      expect.arrayContaining([`--model-upstream ${provider.url}/v1`, 'OPENAI_MODEL=sim-4o', 'OPENAI_API_KEY=***']),
    );
    expect(environment.notPassedToWorkers).toEqual(
      expect.arrayContaining(['OPENAI_BASE_URL', 'OPENAI_API_KEY', 'MODEL', 'LANGSMITH_TRACING', 'LANGSMITH_API_KEY']),
    );
    const json = readFileSync(run.files.json, 'utf8');
    expect(json).not.toContain('sk-from-the-shell');
    expect(json).not.toContain('ls-from-the-shell');
    expect(readFileSync(run.files.md, 'utf8')).toContain('`LANGSMITH_TRACING`');
  });
});
