import { parseArgs, type ParseArgsConfig } from 'node:util';

/**
 * The one way every command of this project reads its command line: `--help` prints the usage and
 * exits 0; a mistake (an unknown flag, a bad value) prints one line naming it and exits 2, with no
 * stack trace; an unexpected failure prints one line and exits 1.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  /** False for bad input that --help would not explain (a malformed request file): the line stands alone. */
  readonly seeHelp: boolean;
  constructor(message: string, opts: { seeHelp?: boolean } = {}) {
    super(message);
    this.seeHelp = opts.seeHelp ?? true;
  }
}

/** Thrown by parseCli for `--help` / `-h`; runCli prints the usage and exits 0. */
export class HelpRequested extends Error {
  override readonly name = 'HelpRequested';
  constructor(readonly usage: string) {
    super('help requested');
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;

export interface CliSpec<O extends Options> {
  usage: string;
  options: O;
  allowPositionals?: boolean;
}

/** node's own messages are good but run on; keep the first sentence. */
function firstSentence(message: string): string {
  return message
    .split('\n')[0]!
    .replace(/\. To specify.*$/, '')
    .replace(/\.$/, '');
}

/** Parses argv; throws HelpRequested on `--help` and UsageError (one line) on a mistake. */
export function parseCli<O extends Options>(spec: CliSpec<O>, argv: string[] = process.argv.slice(2)) {
  if (argv.includes('--help') || argv.includes('-h')) throw new HelpRequested(spec.usage);
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

/** The exit code and the line a command's failure deserves. */
export function exitFor(name: string, err: unknown): { code: number; stream: 'stdout' | 'stderr'; text: string } {
  if (err instanceof HelpRequested) return { code: 0, stream: 'stdout', text: err.usage };
  if (err instanceof UsageError)
    return { code: 2, stream: 'stderr', text: `${name}: ${err.message}${err.seeHelp ? ' (see --help)' : ''}` };
  const message = err instanceof Error ? err.message : String(err);
  return { code: 1, stream: 'stderr', text: `${name}: ${message.replace(/\s*\n\s*/g, ' ')}` };
}

/** Runs a command's main, whose number is the exit code; every failure ends as exitFor says. */
export function runCli(name: string, main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      const { code, stream, text } = exitFor(name, err);
      process[stream].write(`${text}\n`);
      process.exit(code);
    },
  );
}
