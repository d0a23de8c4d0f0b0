import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface WorkspacePackage {
  dir: string;
  pkg: { name: string; exports?: Record<string, string>; [key: string]: unknown };
}

/** Every workspace package with a package.json, as pnpm-workspace.yaml lists them. */
export function workspacePackages(): WorkspacePackage[] {
  const yaml = readFileSync(path.join(ROOT, 'pnpm-workspace.yaml'), 'utf8');
  const globs = [...yaml.split(/^\S.*:/m)[1]!.matchAll(/^\s+-\s+(\S+)/gm)].map((m) => m[1]!);
  return globs
    .flatMap((g) =>
      g.endsWith('/*')
        ? readdirSync(path.join(ROOT, g.slice(0, -2))).map((d) => path.join(ROOT, g.slice(0, -2), d))
        : [path.join(ROOT, g)],
    )
    .filter((dir) => existsSync(path.join(dir, 'package.json')))
    .map((dir) => ({ dir, pkg: JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) }));
}

/** The runtime packages, whichever runtimes there are: every workspace package that exports a runtime module (`./runtime`). */
export function runtimePackages(): WorkspacePackage[] {
  return workspacePackages().filter(({ pkg }) => pkg.exports?.['./runtime']);
}
