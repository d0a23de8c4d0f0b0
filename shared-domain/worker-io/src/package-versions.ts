import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The versions of a package's dependencies as installed (not the ranges in its package.json): a
 * table is only comparable with the versions next to it. `from` is a file inside the package
 * (`import.meta.url`); each dependency is looked up in the node_modules folders above it, as Node
 * resolves it. A dependency that is not installed reads null.
 */
export function installedVersions(from: string, dependencies: readonly string[]): Record<string, string | null> {
  const start = path.dirname(fileURLToPath(from));
  return Object.fromEntries(dependencies.map((d) => [d, versionOf(start, d)]));
}

function versionOf(start: string, dependency: string): string | null {
  for (let dir = start; ; dir = path.dirname(dir)) {
    try {
      const manifest = readFileSync(path.join(dir, 'node_modules', dependency, 'package.json'), 'utf8');
      return (JSON.parse(manifest) as { version?: string }).version ?? null;
    } catch {
      if (dir === path.dirname(dir)) return null;
    }
  }
}
