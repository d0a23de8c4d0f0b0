import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WorkerProcess } from '@vendor-review/testbed';
import { graceAfterTerm } from './cell.ts';
import { leftBy } from './crash-check.ts';

const INSTRUMENT = fileURLToPath(new URL('../../instrument/src/index.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'grace-'));
// ES modules (top-level await) for tsx.
writeFileSync(join(dir, 'package.json'), '{"type":"module"}');

/** A worker that reaches `boundary:term` and then does what `onTerm` says when the signal comes. */
function worker(name: string, onTerm: string): WorkerProcess {
  const entry = join(dir, `${name}.ts`);
  writeFileSync(
    entry,
    [
      `import { installCrashPoints, stepBegins } from ${JSON.stringify(INSTRUMENT)};`,
      'installCrashPoints();',
      onTerm,
      "await stepBegins('EXTRACT');",
      'setInterval(() => {}, 1000);', // the step in flight, forever
    ].join('\n'),
  );
  return new WorkerProcess(name, { entry, env: { CRASH_PLAN: 'boundary:term' } });
}

describe('the grace after SIGTERM', () => {
  const GRACE = 400;

  it('a worker that leaves by itself inside the grace is not killed, and its exit is recorded', async () => {
    const w = worker('drains', "process.once('SIGTERM', () => setTimeout(() => process.exit(0), 50));");
    const grace = graceAfterTerm(w, GRACE);
    const life = await w.exited;
    const s = grace.observed(life)!;
    expect(s).toMatchObject({ graceMs: GRACE, left: 'exited', exitCode: 0 });
    expect(leftBy(s)).toBe('itself');
    expect(s.leftAfterMs).toBeGreaterThanOrEqual(0);
    expect(life.crash).toMatchObject({ point: 'boundary', action: 'term' });
  });

  it('a worker with no handler dies of the signal: it left by itself', async () => {
    const w = worker('default', '');
    const grace = graceAfterTerm(w, GRACE);
    const s = grace.observed(await w.exited)!;
    expect(s).toMatchObject({ left: 'signal' });
    expect(leftBy(s)).toBe('itself');
  });

  it('a worker that ignores SIGTERM is SIGKILLed when the grace ends, not before', async () => {
    const w = worker('ignores', "process.on('SIGTERM', () => {});");
    const grace = graceAfterTerm(w, GRACE);
    const life = await w.exited;
    const s = grace.observed(life)!;
    expect(life.signal, w.output()).toBe('SIGKILL');
    expect(s.left).toBe('killed');
    expect(leftBy(s)).toBe('killed');
    expect(s.leftAfterMs).toBeGreaterThanOrEqual(GRACE);
  });

  it('a worker that never reaches its point was never asked to stop', async () => {
    const entry = join(dir, 'never.ts');
    writeFileSync(entry, 'process.exit(3);');
    const w = new WorkerProcess('never', { entry, env: { CRASH_PLAN: 'boundary:term' } });
    const grace = graceAfterTerm(w, GRACE);
    expect(grace.observed(await w.exited)).toBeNull();
    expect(grace.termed).toBe(false);
  });
});
