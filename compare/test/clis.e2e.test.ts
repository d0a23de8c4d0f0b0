import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CHAOS_RUNTIME_NAMES } from '../src/chaos/args.ts';
import { RUNTIME_NAMES } from '../src/runtimes.ts';

/**
 * Every command of the project reads its command line the same way (shared-domain's CLI helper):
 * `--help` prints a usage and exits 0; an unknown flag is one line on stderr naming it, exit 2,
 * no stack trace, and nothing starts.
 */
const root = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));
const COMMANDS: Record<string, string> = {
  compare: root('compare/src/compare.ts'),
  chaos: root('compare/src/chaos/cli.ts'),
  bench: root('compare/src/bench/cli.ts'),
  review: root('shared-domain/world/src/review/cli.ts'),
  world: root('shared-domain/world/src/cli.ts'),
  'LangGraph worker': root('langgraph-impl/src/worker.ts'),
  'LangGraph retention': root('langgraph-impl/src/retention-cli.ts'),
  'Temporal worker': root('temporal-impl/src/worker.ts'),
  'plain worker': root('compare/src/plain/worker.ts'),
};

/** The workers as the harness starts them, with crash points laid over them. */
const ARMED_WORKERS: Record<string, string> = {
  'LangGraph worker': root('langgraph-impl/harness/worker.ts'),
  'Temporal worker': root('temporal-impl/harness/worker.ts'),
  'plain worker': root('compare/src/plain-harness/worker.ts'),
};

function run(
  entry: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe.concurrent('every command line', () => {
  it.each(Object.entries(COMMANDS))('%s: --help exits 0 with a usage', async (_name, entry) => {
    const r = await run(entry, ['--help']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(/^usage: /);
  });

  it.each(Object.entries(COMMANDS))('%s: an unknown flag is one line on stderr and exit 2', async (_name, entry) => {
    const r = await run(entry, ['--no-such-flag']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/Unknown option '--no-such-flag' \(see --help\)$/m);
  });

  it.each([
    ['LangGraph worker', ['--run', 'rev-x'], { DATABASE_URL: 'postgres://127.0.0.1:1/none' }],
    ['Temporal worker', [], { WORLD_URL: 'http://127.0.0.1:1' }],
    ['plain worker', ['--run', 'rev-x'], { DATABASE_URL: 'postgres://127.0.0.1:1/none' }],
  ] as const)('%s: a mistyped crash plan is one line and exit 2, before anything connects', async (name, args, env) => {
    const r = await run(ARMED_WORKERS[name]!, [...args], { ...env, CRASH_PLAN: 'after-modle' });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/unknown crash point "after-modle" in the crash plan; known points: boundary, /);
  });

  it('pnpm lab worker --crash with an unknown point: one line and exit 2, before anything starts', async () => {
    const r = await run(root('compare/src/lab/cli.ts'), ['worker', 'langgraph', '--crash', 'after-modle']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/--crash: unknown crash point "after-modle"/);
  });

  it.each([
    [['--clean'], {}, /--clean needs DATABASE_URL/],
    [['--model-upstream', 'http://127.0.0.1:1/v1'], {}, /--model-upstream needs OPENAI_MODEL/],
    [['--model-upstream', 'nowhere'], { OPENAI_MODEL: 'm' }, /--model-upstream needs an http\(s\) URL/],
  ] as const)('compare %j: one line and exit 2, before anything starts', async (args, env, message) => {
    const r = await run(COMMANDS.compare!, [...args], env);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
  });

  // `--runs -1` used to be "argument is ambiguous": every number is refused in the option's own words.
  it.each([
    ['compare', ['--concurrency', '0'], '--concurrency must be a whole number from 1 to 32, got "0"'],
    ['compare', ['--repeat', '-2'], '--repeat must be a whole number from 1 to 50, got "-2"'],
    ['compare', ['--bound', 'soon'], '--bound must be a whole number from 1 to 600, got "soon"'],
    ['chaos', ['--runs', '-1'], '--runs must be a whole number from 1 to 10000, got "-1"'],
    ['chaos', ['--workers', '0'], '--workers must be a whole number from 1 to 16, got "0"'],
    ['chaos', ['--bound', '1.5'], '--bound must be a whole number from 1 to 3600, got "1.5"'],
    ['world', ['--port', '-1'], '--port must be a whole number from 0 to 65535, got "-1"'],
    ['world', ['--model-latency', 'fast'], '--model-latency must be a whole number from 0 to 60000, got "fast"'],
    ['lab', ['up', '--page-latency', '-5'], '--page-latency must be a whole number from 0 to 60000, got "-5"'],
    ['lab', ['up', '--world-port', 'x'], '--world-port must be a whole number from 0 to 65535, got "x"'],
  ] as const)('%s %j: one line in the option’s own words, exit 2', async (name, args, message) => {
    const entry = name === 'lab' ? root('compare/src/lab/cli.ts') : COMMANDS[name]!;
    const r = await run(entry, [...args]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([`${name}: ${message} (see --help)`]);
  });

  // Runtime names come from the registry (chaos: those it drives), never from a list of the CLI's own.
  it.each([
    ['compare', ['--runtime', 'airflow'], `unknown runtime "airflow" (known: ${RUNTIME_NAMES.join(', ')})`],
    ['chaos', ['--runtime', 'plain'], `unknown runtime "plain" (known: ${CHAOS_RUNTIME_NAMES.join(', ')})`],
    ['chaos', ['--runtime', ','], `--runtime needs at least one of: ${CHAOS_RUNTIME_NAMES.join(', ')}`],
  ] as const)('%s %j: one line naming what is known, exit 2', async (name, args, message) => {
    const r = await run(COMMANDS[name]!, [...args]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([`${name}: ${message} (see --help)`]);
  });

  it('bench --runtime plain: the floor is never a runtime to bench, one line, exit 2', async () => {
    const r = await run(COMMANDS.bench!, ['--runtime', 'plain']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr.trim()).toMatch(/^bench: unknown runtime "plain" \(known: [a-z-]+(, [a-z-]+)*\) \(see --help\)$/);
  });
});
