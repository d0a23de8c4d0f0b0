import { parseArgs, type ParseArgsConfig } from 'node:util';

/**
 * The one way every command of this project reads its command line: `--help` prints the usage and
 * exits 0; a mistake (an unknown flag, a bad value) prints one line naming it and exits 2, with no
 * stack trace; an unexpected failure prints one line and exits 1.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface CliSpec<O extends NonNullable<ParseArgsConfig['options']>> {
  /** How the command calls itself in messages: "compare", "worker". */
  name: string;
  usage: string;
  options: O;
  allowPositionals?: boolean;
}

type Parsed<O extends NonNullable<ParseArgsConfig['options']>> = ReturnType<
  typeof parseArgs<{ options: O; allowPositionals: boolean; strict: true }>
>;

/** node's own messages are good but run on; keep the first sentence. */
function firstSentence(message: string): string {
  return message
    .split('\n')[0]!
    .replace(/\. To specify.*$/, '')
    .replace(/\.$/, '');
}

/**
 * Parses argv; on `--help` prints the usage and exits 0; throws UsageError on a mistake (let
 * `runCli` turn it into the one line and exit 2).
 */
export function parseCli<O extends NonNullable<ParseArgsConfig['options']>>(
  spec: CliSpec<O>,
  argv: string[] = process.argv.slice(2),
): Parsed<O> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${spec.usage}\n`);
    process.exit(0);
  }
  try {
    return parseArgs({
      args: argv,
      options: spec.options,
      allowPositionals: spec.allowPositionals ?? false,
      strict: true,
    });
  } catch (err) {
    throw new UsageError(firstSentence((err as Error).message));
  }
}

/**
 * Runs a command's main: its number is the exit code. A UsageError exits 2 with one line
 * ("name: message (see --help)"); any other error exits 1 with its message on one line.
 */
export function runCli(name: string, main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      if (err instanceof UsageError) {
        process.stderr.write(`${name}: ${err.message} (see --help)\n`);
        process.exit(2);
      }
      const message = err instanceof Error ? err.message : String(err);
      process.stderr.write(`${name}: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
      process.exit(1);
    },
  );
}
