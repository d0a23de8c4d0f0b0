import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The runtime versions a result was measured with, read from the installed packages themselves
 * (not from the ranges in package.json): a table is only comparable with the versions next to it.
 */
function packageDir(specifier: string): string | null {
  try {
    let dir = path.dirname(fileURLToPath(import.meta.resolve(specifier)));
    for (let i = 0; i < 6; i++) {
      try {
        readFileSync(path.join(dir, 'package.json'));
        return dir;
      } catch {
        dir = path.dirname(dir);
      }
    }
  } catch {
    // not installed
  }
  return null;
}

function versionOf(fromPackage: string | null, dependency: string): string | null {
  if (!fromPackage) return null;
  try {
    return (
      (
        JSON.parse(readFileSync(path.join(fromPackage, 'node_modules', dependency, 'package.json'), 'utf8')) as {
          version?: string;
        }
      ).version ?? null
    );
  } catch {
    return null;
  }
}

export function runtimeVersions() {
  const lg = packageDir('@vendor-review/langgraph');
  const tm = packageDir('@vendor-review/temporal');
  return {
    langgraph: versionOf(lg, '@langchain/langgraph'),
    langgraphCheckpointPostgres: versionOf(lg, '@langchain/langgraph-checkpoint-postgres'),
    temporalSdk: versionOf(tm, '@temporalio/worker') ?? versionOf(tm, '@temporalio/client'),
  };
}
