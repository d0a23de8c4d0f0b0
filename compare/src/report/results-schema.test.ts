import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixtureResults } from '../../test/fixture-results.ts';
import { SUITES } from '../suites/index.ts';
import {
  RESULTS_SCHEMA_FILE,
  resultsJsonSchemaText,
  resultsSchema,
  SCHEMA_VERSION,
  validateResults,
} from './results-schema.ts';

const rowSchemas = SUITES.map((s) => s.rowSchema);

describe('the contract of results.json', () => {
  it('the committed JSON Schema is what the zod schema exports (regenerate: pnpm --dir compare schema)', () => {
    expect(readFileSync(RESULTS_SCHEMA_FILE, 'utf8')).toBe(resultsJsonSchemaText(rowSchemas));
  });

  it('covers crash, production, granularity and window rows, told apart by `suite`, under a schemaVersion', () => {
    const results = fixtureResults();
    expect(results.schemaVersion).toBe(SCHEMA_VERSION);
    expect(new Set(results.rows.map((r) => r.suite))).toEqual(new Set(['crash', 'production']));
    expect(() => validateResults(JSON.parse(JSON.stringify(results)), rowSchemas)).not.toThrow();
    const schema = JSON.parse(resultsJsonSchemaText(rowSchemas)) as {
      properties: { rows: { items: { oneOf: { properties: { suite: { const: string } } }[] } } };
    };
    expect(schema.properties.rows.items.oneOf.map((o) => o.properties.suite.const)).toEqual([
      'crash',
      'production',
      'granularity',
      'window',
    ]);
  });

  it('the writer refuses a results.json that breaks it, naming the field', () => {
    const results = fixtureResults();
    const broken = { ...results, rows: [{ ...results.rows[0]!, extraModelCalls: 'two' }] };
    expect(() => validateResults(broken, rowSchemas)).toThrow(
      /^results\.json would break its schema at rows\.0\.extraModelCalls: /,
    );
    expect(resultsSchema(rowSchemas).safeParse({ ...results, schemaVersion: 1 }).success).toBe(false);
  });
});
