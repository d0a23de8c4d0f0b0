import { workerLife } from '@vendor-review/testbed';
import { describe, expect, it } from 'vitest';
import { failureLine, nameFor, nextName, withoutPrefix } from './worker-child.ts';

describe("a lab worker's processes, named and quoted", () => {
  it('names them as pnpm compare does: A to Z, then W27 on', () => {
    expect([0, 1, 25, 26, 27].map(nameFor)).toEqual(['A', 'B', 'Z', 'W27', 'W28']);
  });

  it("the run's next worker takes the next letter after its earlier workers' names, a retry's name counted once", () => {
    expect(nextName([])).toBe('A');
    const life = (name: string) => workerLife({ name, startedAt: 0 });
    expect(nextName([life('A')])).toBe('B');
    expect(nextName([life('A'), life('B'), life('B')])).toBe('C');
  });

  it('quotes a line without the prefix the lab put before it', () => {
    expect(withoutPrefix('[worker A pid 12] run r1: step EXTRACT started')).toBe('step EXTRACT started');
    expect(withoutPrefix('[worker B pid 13] fetching  ')).toBe('fetching');
    expect(withoutPrefix('  plain line ')).toBe('plain line');
  });

  it("says what went wrong from the error line, not the runtime's sign-off after it", () => {
    const tail = [
      '[worker A pid 12] run r1: step EXTRACT started',
      '[worker A pid 12] run r1: Error: connection refused',
      '',
      'Node.js v20.19.0',
    ].join('\n');
    expect(failureLine(tail)).toBe('Error: connection refused');
    expect(failureLine('[worker A pid 12] run r1: leaving\nNode.js v20.19.0\n')).toBe('Node.js v20.19.0');
    expect(failureLine('')).toBe('no output');
    expect(failureLine(`Error: ${'x'.repeat(400)}`)).toHaveLength(300);
  });
});
