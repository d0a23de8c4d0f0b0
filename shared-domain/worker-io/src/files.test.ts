import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ensureWritableDirectory, makeDirectory, writeFileAtomic } from './files.ts';

function scratch(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'files-test-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('makeDirectory', () => {
  it('makes every missing level, and is harmless when the folder exists', () => {
    const dir = path.join(scratch(), 'a', 'b', 'c');
    makeDirectory(dir);
    makeDirectory(dir);
    ensureWritableDirectory(dir);
    expect(readdirSync(dir)).toEqual([]); // the probe is gone
  });

  it('fails at once through a file (ENOTDIR)', () => {
    const root = scratch();
    writeFileSync(path.join(root, 'file'), '');
    expect(() => makeDirectory(path.join(root, 'file', 'x', 'y'))).toThrow(/ENOTDIR/);
  });

  it.runIf(process.platform === 'linux')('fails at once under /proc, where a recursive mkdir spins (ENOENT)', () => {
    expect(() => makeDirectory('/proc/forbidden/x')).toThrow(
      /ENOENT: no such file or directory, mkdir '\/proc\/forbidden'/,
    );
  });
});

describe('writeFileAtomic', () => {
  it('replaces the file whole and leaves no temporary file', () => {
    const dir = scratch();
    const file = path.join(dir, 'results.json');
    writeFileAtomic(file, 'old\n');
    writeFileAtomic(file, 'new\n');
    expect(readFileSync(file, 'utf8')).toBe('new\n');
    expect(readdirSync(dir)).toEqual(['results.json']);
  });

  it('leaves the old file as it was when the new one cannot be put in place', () => {
    const dir = scratch();
    const file = path.join(dir, 'report');
    writeFileAtomic(path.join(dir, 'report'), 'kept\n');
    // A folder where the temporary file would go: the write fails before anything is renamed.
    expect(() => writeFileAtomic(path.join(file, 'inner.json'), 'x')).toThrow(/ENOTDIR/);
    expect(readFileSync(file, 'utf8')).toBe('kept\n');
    expect(readdirSync(dir)).toEqual(['report']);
  });
});
