import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CRASH_POINT_NAMES } from '@vendor-review/instrument';
import { ROOT, runtimePackages } from './workspace-packages.ts';

/**
 * The instrument lays its crash points over the app from outside (shared-domain/instrument): the
 * code a team would deploy holds nothing that exists only for the experiment. That code is the
 * domain, every runtime package's src/ (whichever runtimes there are) and the plain worker.
 */
const APPS = [
  'shared-domain/pipeline/src',
  ...runtimePackages().map(({ dir }) => path.relative(ROOT, path.join(dir, 'src'))),
  'compare/src/plain',
];

/** What only the experiment needs: the instrument, its plan, a call to a crash point by its name. */
const EXPERIMENT: [string, RegExp][] = [
  ['the instrument', /@vendor-review\/instrument/],
  ['the crash plan', /CRASH_PLAN/],
  ['a crash hook', /crashpoint|crash-hook|isArmed\(|stepBegins|commitWritten|watchForWait|runWaits/i],
  ['a settle delay', /SETTLE_MS/],
  [
    'a crash point by name',
    new RegExp(`['"\`](${CRASH_POINT_NAMES.filter((p) => p !== 'awaiting-approval').join('|')})['"\`]`),
  ],
];

function sourcesUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => path.join(dir, f));
}

describe('the code a team would deploy', () => {
  it('covers the domain, every runtime and the plain worker', () => {
    expect(APPS.length).toBeGreaterThanOrEqual(4);
    for (const dir of APPS) expect(sourcesUnder(dir).length, dir).toBeGreaterThan(0);
  });

  it.each(APPS)('%s holds nothing that exists only for the experiment', (dir) => {
    const found = sourcesUnder(dir).flatMap((file) => {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      return EXPERIMENT.filter(([, pattern]) => pattern.test(text)).map(([what]) => `${file}: ${what}`);
    });
    expect(found).toEqual([]);
  });
});
