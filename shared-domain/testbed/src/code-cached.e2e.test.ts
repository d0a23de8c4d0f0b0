import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const LAUNCHER = fileURLToPath(new URL('./code-cached.mjs', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'code-cached-'));
const bundle = path.join(dir, 'bundle.cjs');
// What a worker bundle relies on: its own path, its arguments, require, and its exit code.
writeFileSync(
  bundle,
  `const path = require('node:path');
setTimeout(() => {
  console.log(JSON.stringify({ file: __filename, dir: __dirname === path.dirname(__filename), argv: process.argv.slice(2) }));
  process.exitCode = 3;
}, 10);`,
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (...args: string[]) => spawnSync(process.execPath, args, { encoding: 'utf8' });
const cache = `${bundle}.v8cache`;

describe('code-cached.mjs', () => {
  it('runs a bundle as node runs it, and leaves its code cache beside it', () => {
    const direct = run(bundle, 'a', 'b');
    const cached = run(LAUNCHER, bundle, 'a', 'b');
    expect(direct.status).toBe(3);
    expect(cached.stderr).toBe('');
    expect({ status: cached.status, stdout: cached.stdout }).toEqual({ status: 3, stdout: direct.stdout });
    expect(statSync(cache).size).toBeGreaterThan(0);
  });

  it('keeps a cache V8 accepts, and writes again one it rejects', () => {
    const before = statSync(cache).mtimeMs;
    expect(run(LAUNCHER, bundle).status).toBe(3);
    expect(statSync(cache).mtimeMs).toBe(before); // a rejected cache would have been written again

    writeFileSync(cache, 'not a code cache');
    const rejected = run(LAUNCHER, bundle, 'x');
    expect({ status: rejected.status, argv: JSON.parse(rejected.stdout).argv }).toEqual({ status: 3, argv: ['x'] });
    expect(readFileSync(cache, 'utf8')).not.toBe('not a code cache');
  });
});
