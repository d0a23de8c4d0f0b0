import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPostgres, type PostgresHandle } from '@vendor-review/testbed';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExampleServices, type ExampleServices } from '../examples/services.ts';
import { ResultsSchema, type CrashTestResults } from '../src/results.ts';

/**
 * `pnpm crash-test` on the examples, as a user runs it: a real LangGraph graph on PostgreSQL and a
 * real Temporal workflow on a dev server, workers really killed, against a local vendor API and
 * OpenAI-compatible model that count what they are sent.
 */
const PKG = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const SECRET = 'sk-example-not-a-secret';

let services: ExampleServices;
let pg: PostgresHandle;
// One PostgreSQL for every run here (DATABASE_URL, else one embedded server), not one per run.
beforeAll(async () => {
  [services, pg] = await Promise.all([startExampleServices(), startPostgres({ database: 'crash_test' })]);
});
afterAll(() => Promise.all([services.close(), pg.stop()]));

function crashTest(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  api: ExampleServices = services,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli.ts', ...args],
      {
        cwd: PKG,
        env: { ...process.env, EXAMPLE_API_URL: api.url, DATABASE_URL: pg.url, INIT_CWD: PKG, ...env },
        maxBuffer: 1 << 24,
      },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function run(
  args: string[],
  api?: ExampleServices,
): Promise<{ results: CrashTestResults; html: string; json: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'crash-test-e2e-'));
  const r = await crashTest([...args, '--report-dir', dir], {}, api);
  expect(r.stderr + r.stdout).not.toContain(SECRET);
  expect(r.code, r.stderr).toBe(0);
  const json = await readFile(path.join(dir, 'results.json'), 'utf8');
  return {
    results: ResultsSchema.parse(JSON.parse(json)),
    html: await readFile(path.join(dir, 'report.html'), 'utf8'),
    json,
  };
}

// The cells run side by side: each spawns its own workers, and the e2e budget is wall time.
describe.concurrent('pnpm crash-test on the examples', () => {
  it('LangGraph, replayed: the ticket POST goes out again without a key, wherever the worker dies around it', async () => {
    const { results, html, json } = await run(['examples/langgraph/graph.ts', '--calls', '/tickets']);
    expect(results.runtime).toBe('langgraph');
    expect(results.findings.map((f) => f.id)).toEqual([
      expect.stringMatching(/^in-flight-post-.*tickets-1$/),
      expect.stringMatching(/^after-post-.*tickets-1$/),
    ]);
    for (const f of results.findings) {
      expect(f).toMatchObject({ reached: true, resumed: true, sameFinal: true, mode: 'replay' });
      expect(f.again).toContainEqual(
        expect.objectContaining({ call: expect.stringMatching(/^POST .*\/tickets$/), extra: 1, withKey: false }),
      );
      expect(f.advice.join('\n')).toMatch(
        /tickets runs again .*give it an idempotency key, or move it behind an outbox/,
      );
    }
    const model = results.baseline.calls.find((c) => c.call.endsWith('/v1/chat/completions'))!;
    expect(model).toMatchObject({ inputTokens: 120, outputTokens: 30 });
    expect(model.headers.authorization).toBe('[redacted]');
    expect(json + html).not.toContain(SECRET);
    expect(html).toContain('class="ct-timeline"');
  });

  it('LangGraph, --live: the repeated POST really reaches the API, and the run ends with another ticket than the baseline', async () => {
    // An API of its own: what it counts is this test's alone.
    const api = await startExampleServices();
    try {
      const { results } = await run(['examples/langgraph/graph.ts', '--calls', '/tickets', '--live'], api);
      const after = results.findings.find((f) => f.id.startsWith('after-'));
      expect(after).toMatchObject({ mode: 'live', resumed: true, sameFinal: false });
      // The baseline's; worker A's and worker B's after it returned; worker B's after the in-flight kill
      // (whether worker A's in-flight request got there before it died is a race, as in a real crash).
      expect(api.received.filter((c) => c.method === 'POST' && c.path === '/tickets').length).toBeGreaterThanOrEqual(4);
    } finally {
      await api.close();
    }
  });

  it('the Functional API: an entrypoint with its checkpointer replaced, its tasks the steps', async () => {
    const { results } = await run(['examples/functional/workflow.ts', '--steps', 'openTicket', '--durability', 'sync']);
    expect(results.runtime).toBe('functional');
    expect(results.baseline.steps).toEqual(['fetchVendor', 'openTicket']);
    const [f] = results.findings;
    expect(f).toMatchObject({ reached: true, resumed: true, sameFinal: true });
    // Worker A died as openTicket began: its POST never left, and worker B's is the first.
    expect(f!.again.map((r) => r.call)).not.toContainEqual(expect.stringMatching(/tickets$/));
    expect(f!.runtimeDid).toMatch(/^re-ran the tasks? (.*, )?openTicket$/);
  });

  it('a graph that waits in interrupt(): --resume answers it in the baseline and in worker B', async () => {
    const { results } = await run(['examples/langgraph/approval.ts', '--resume', '"yes"', '--steps', 'open']);
    // `ask` runs again when it is resumed: LangGraph re-runs an interrupted node from its start.
    expect(results.baseline.steps).toEqual(['ask', 'ask', 'open']);
    expect(results.baseline.final).toMatchObject({ approved: true, ticket: expect.stringMatching(/^T-\d+$/) });
    expect(results.findings[0]).toMatchObject({ reached: true, resumed: true, sameFinal: true });
  });

  it('Temporal, replayed: the server hands the activity to a fresh worker, which sends the POST again', async () => {
    const { results } = await run([
      'examples/temporal/workflows.ts',
      '--activities',
      'examples/temporal/activities.ts',
      '--input',
      '"acme"',
      '--calls',
      '/tickets',
      '--max-cells',
      '1',
    ]);
    expect(results.runtime).toBe('temporal');
    const [f] = results.findings;
    expect(f).toMatchObject({
      reached: true,
      resumed: true,
      sameFinal: true,
      runtimeDid: 're-ran the activity openTicket',
    });
    expect(f!.again).toContainEqual(
      expect.objectContaining({ call: expect.stringMatching(/tickets$/), withKey: false }),
    );
    expect(results.meta.sdk['@temporalio/worker']).toMatch(/^1\./);
  });

  it.each([
    [
      'a module that is no app',
      ['examples/services.ts'],
      /^crash-test: .*examples\/services\.ts is not an app this tool knows: expected one of/,
    ],
    [
      'a workflow type that does not exist',
      ['examples/temporal/workflows.ts', '--activities', 'examples/temporal/activities.ts', '--workflow', 'nope'],
      /^crash-test: workflow type "nope" does not exist in .*workflows\.ts \(it exports: reviewVendor\)/,
    ],
    [
      'a module that does not exist',
      ['examples/none.ts'],
      /^crash-test: module examples\/none\.ts does not exist|^crash-test: module .*none\.ts does not exist/,
    ],
    ['bad JSON', ['examples/langgraph/graph.ts', '--input', '{x'], /^crash-test: --input must be JSON/],
    [
      'a graph compiled without the checkpointer it was given',
      ['test/fixtures/no-checkpointer.ts'],
      /^crash-test: the baseline run did not end: build\(checkpointer\) compiled the graph without the checkpointer it was given/,
    ],
  ])('%s: one line, exit 2', async (_what, args, line) => {
    const r = await crashTest(args);
    expect(r.code).toBe(2);
    // The error is the tool's last line (below its progress, where it got that far).
    expect(r.stderr.trim().split('\n').at(-1)).toMatch(line);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('an API that is down during the baseline: one line naming the call, exit 2', async () => {
    const r = await crashTest(['examples/langgraph/graph.ts'], { EXAMPLE_API_URL: 'http://127.0.0.1:9' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/the baseline could not reach GET 127\.0\.0\.1:9\/vendors\/acme: .*\(is it up\?\)/);
  });
});
