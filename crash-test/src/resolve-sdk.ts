import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The runtime's SDK as the user's app sees it: found in the node_modules above the app's module,
 * by the package's own `exports` with the `import` condition, so the tool and the app share one
 * copy of each class (a LangGraph `Command` made from another copy is not a command to the graph).
 */
export class MissingSdkError extends Error {
  override readonly name = 'MissingSdkError';
}

function packageDir(from: string, name: string): string | null {
  for (let dir = dirname(resolve(from)); ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) return null;
  }
}

type ExportTarget = string | null | { [condition: string]: ExportTarget } | ExportTarget[];

function pick(target: ExportTarget): string | null {
  if (target === null) return null;
  if (typeof target === 'string') return target;
  if (Array.isArray(target)) {
    for (const t of target) {
      const found = pick(t);
      if (found) return found;
    }
    return null;
  }
  for (const condition of ['import', 'node', 'default']) {
    if (condition in target) {
      const found = pick(target[condition]!);
      if (found) return found;
    }
  }
  return null;
}

/** `@langchain/langgraph/web` → its package and the subpath `./web`. */
function split(specifier: string): { name: string; subpath: string } {
  const parts = specifier.split('/');
  const n = specifier.startsWith('@') ? 2 : 1;
  const rest = parts.slice(n).join('/');
  return { name: parts.slice(0, n).join('/'), subpath: rest ? `./${rest}` : '.' };
}

export function sdkPackage(from: string, name: string): { dir: string; version: string } | null {
  const dir = packageDir(from, name);
  if (!dir) return null;
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: string };
  return { dir, version: pkg.version ?? 'unknown' };
}

export function resolveSdk(from: string, specifier: string): string {
  const { name, subpath } = split(specifier);
  const dir = packageDir(from, name);
  if (!dir) throw new MissingSdkError(`${name} is not installed where ${from} can import it (npm install ${name})`);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    exports?: ExportTarget | Record<string, ExportTarget>;
    module?: string;
    main?: string;
  };
  let file: string | null = null;
  if (pkg.exports && typeof pkg.exports === 'object' && !Array.isArray(pkg.exports)) {
    const map = pkg.exports as Record<string, ExportTarget>;
    const keyed = Object.keys(map).some((k) => k.startsWith('.'));
    file = pick(keyed ? (map[subpath] ?? null) : subpath === '.' ? (pkg.exports as ExportTarget) : null);
  } else if (typeof pkg.exports === 'string' && subpath === '.') file = pkg.exports;
  else if (subpath === '.') file = pkg.module ?? pkg.main ?? 'index.js';
  else file = subpath;
  if (!file) throw new MissingSdkError(`${specifier} is not exported by the installed ${name}`);
  return pathToFileURL(join(dir, file)).href;
}

export async function importSdk<T>(from: string, specifier: string): Promise<T> {
  return (await import(resolveSdk(from, specifier))) as T;
}
