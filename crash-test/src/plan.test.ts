import { describe, expect, it } from 'vitest';
import type { WorkerEvent } from './events.ts';
import { deriveCells, narrow } from './plan.ts';
import { answerFor, callsOf } from './record.ts';
import { redactHeaders, usageOf } from './redact.ts';

const base = { pid: 1 };
const response = { status: 200, headers: {}, bodyBase64: '' };
const sent = (t: number, method: string, path: string, occurrence: number, bodyHash = 'h'): WorkerEvent => ({
  e: 'sent',
  t,
  ...base,
  method,
  host: 'api.test',
  path,
  occurrence,
  bodyHash,
  idempotencyKey: false,
  headers: {},
});
const answered = (t: number, method: string, path: string, occurrence: number): WorkerEvent => ({
  e: 'answered',
  t,
  ...base,
  call: `${method} api.test${path}`,
  occurrence,
  source: 'live',
  response,
  usage: null,
});

const baseline: WorkerEvent[] = [
  { e: 'step', t: 1, ...base, name: 'fetch', occurrence: 1 },
  sent(2, 'GET', '/a', 1),
  answered(3, 'GET', '/a', 1),
  { e: 'step', t: 4, ...base, name: 'post', occurrence: 1 },
  sent(5, 'POST', '/b', 1),
  answered(6, 'POST', '/b', 1),
  sent(7, 'POST', '/b', 2),
];

describe('the crash plan, derived from the baseline', () => {
  it('a cell at each step, while each call is in flight, and after each call that returned, in run order', () => {
    expect(deriveCells(baseline).map((c) => c.label)).toEqual([
      'as step fetch #1 begins',
      'while GET api.test/a #1 is in flight',
      'after GET api.test/a #1 returned',
      'as step post #1 begins',
      'while POST api.test/b #1 is in flight',
      'after POST api.test/b #1 returned',
      'while POST api.test/b #2 is in flight',
    ]);
  });

  it('--calls and --steps keep what they name; --max-cells spreads what is left over the run', () => {
    const cells = deriveCells(baseline);
    expect(narrow(cells, { calls: ['/b'] }).map((c) => c.id)).toEqual([
      'in-flight-post-api-test-b-1',
      'after-post-api-test-b-1',
      'in-flight-post-api-test-b-2',
    ]);
    expect(narrow(cells, { steps: ['post'], calls: ['/a'] })).toHaveLength(3);
    expect(narrow(cells, { calls: ['/b#2'], steps: ['fetch#1', 'post#2'] }).map((c) => c.id)).toEqual([
      'step-fetch-1',
      'in-flight-post-api-test-b-2',
    ]);
    expect(narrow(cells, { maxCells: 3 }).map((c) => c.label)).toEqual([
      'as step fetch #1 begins',
      'as step post #1 begins',
      'while POST api.test/b #2 is in flight',
    ]);
  });
});

describe('replay', () => {
  const recording = callsOf(baseline);
  it('answers the same request at the same occurrence, a repeat with the same body, a changed body with a note, and nothing it never saw', () => {
    expect(answerFor(recording, { key: 'POST api.test/b', occurrence: 1, bodyHash: 'h' })).toMatchObject({
      bodyDiffers: false,
    });
    expect(answerFor(recording, { key: 'POST api.test/b', occurrence: 3, bodyHash: 'h' })).toMatchObject({
      bodyDiffers: false,
    });
    expect(answerFor(recording, { key: 'POST api.test/b', occurrence: 1, bodyHash: 'other' })).toMatchObject({
      bodyDiffers: true,
    });
    expect(answerFor(recording, { key: 'DELETE api.test/b', occurrence: 1, bodyHash: 'h' })).toBeNull();
  });
});

describe('what is written down', () => {
  it('keeps no credential', () => {
    const h = new Headers({
      authorization: 'Bearer x',
      'x-api-key': 'k',
      cookie: 'c=1',
      'content-type': 'application/json',
    });
    expect(redactHeaders(h)).toEqual({
      authorization: '[redacted]',
      'x-api-key': '[redacted]',
      cookie: '[redacted]',
      'content-type': 'application/json',
    });
  });

  it('reads OpenAI- and Anthropic-shaped usage', () => {
    expect(usageOf('{"model":"m","usage":{"prompt_tokens":3,"completion_tokens":4}}')).toEqual({
      inputTokens: 3,
      outputTokens: 4,
      model: 'm',
    });
    expect(usageOf('{"usage":{"input_tokens":5,"output_tokens":6}}')).toEqual({
      inputTokens: 5,
      outputTokens: 6,
      model: null,
    });
    expect(usageOf('not json')).toBeNull();
  });
});
