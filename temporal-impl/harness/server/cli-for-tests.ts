import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { resolveTemporalCli } from './cli.ts';

const run = promisify(execFile);

/** The real CLI is part of the test setup (.ci/run installs it): without it these tests fail, never skip. */
export function cliOrFail(): string {
  const cli = resolveTemporalCli();
  if (!cli)
    throw new Error('no Temporal CLI: set TEMPORAL_CLI_PATH (bash .ci/run installs one under .cache/temporal-cli)');
  return cli;
}

/** A `temporal` command against a server, its stdout; no profile of the machine's is read. */
export async function temporalCli(...args: string[]): Promise<string> {
  const { stdout } = await run(cliOrFail(), [...args, '--disable-config-file', '--command-timeout', '5s'], {
    timeout: 15_000,
  });
  return stdout;
}

/** `temporal operator namespace describe`, parsed. */
export async function describeNamespace(
  namespace: string,
  address: string,
): Promise<{ namespaceInfo?: Record<string, unknown> }> {
  const out = await temporalCli(
    'operator',
    'namespace',
    'describe',
    '--namespace',
    namespace,
    '--address',
    address,
    '--output',
    'json',
  );
  return JSON.parse(out) as { namespaceInfo?: Record<string, unknown> };
}
