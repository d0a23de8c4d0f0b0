import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ensureWritableDirectory } from './files.ts';

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

/**
 * `--runs -1` as `--runs=-1`: node's parser takes a value that starts with a dash for a forgotten
 * argument ("argument is ambiguous"), when the user meant a number the option's own check can
 * then refuse in its own words.
 */
function attachNegativeNumbers(argv: string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const name = /^--([^=]+)$/.exec(argv[i]!)?.[1];
    const next = argv[i + 1];
    if (name && options[name]?.type === 'string' && next !== undefined && /^-[\d.]/.test(next)) {
      out.push(`--${name}=${next}`);
      i++;
    } else out.push(argv[i]!);
  }
  return out;
}

/** Parses argv; throws HelpRequested on `--help` and UsageError (one line) on a mistake. */
export function parseCli<O extends Options>(spec: CliSpec<O>, argv: string[] = process.argv.slice(2)) {
  if (argv.includes('--help') || argv.includes('-h')) throw new HelpRequested(spec.usage);
  try {
    return parseArgs({
      args: attachNegativeNumbers(argv, spec.options),
      options: spec.options,
      allowPositionals: spec.allowPositionals ?? false,
      strict: true,
    });
  } catch (err) {
    throw new UsageError(firstSentence((err as Error).message));
  }
}

/**
 * A whole number option (`--runs 4`), checked in its own words: `--runs must be a whole number from
 * 1 to 10000, got "-1"`. Undefined when the option was not given.
 */
export function wholeNumber(flag: string, text: string | undefined, range: { min?: number; max: number }) {
  if (text === undefined) return undefined;
  const min = range.min ?? 1;
  const n = Number(text);
  if (!/^\s*-?\d+\s*$/.test(text) || n < min || n > range.max)
    throw new UsageError(`${flag} must be a whole number from ${min} to ${range.max}, got "${text}"`);
  return n;
}

/**
 * A comma list option (`--runtime langgraph,plain`): each item one of `allowed`, duplicates
 * dropped, in the order given. Undefined when the option was not given.
 */
export function commaList<T extends string>(
  flag: string,
  text: string | undefined,
  allowed: readonly T[],
  /** What one item is called in the message ("crash point"); default the flag's name. */
  noun: string = flag.replace(/^--/, ''),
): T[] | undefined {
  if (text === undefined) return undefined;
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0) throw new UsageError(`${flag} needs at least one of: ${allowed.join(', ')}`);
  const unknown = items.filter((i) => !(allowed as readonly string[]).includes(i));
  if (unknown.length)
    throw new UsageError(`unknown ${noun} ${unknown.map((u) => `"${u}"`).join(', ')} (known: ${allowed.join(', ')})`);
  return [...new Set(items)] as T[];
}

/**
 * A folder written only at the end of a run (`--report-dir`), checked before the run: made if
 * missing, and a file written in it. Returns its absolute path (relative to `base`); a folder
 * that cannot be used is a usage mistake, one line naming it and why, before anything starts.
 */
export function writableDirectory(flag: string, dir: string, base: string = process.cwd()): string {
  const abs = path.resolve(base, dir);
  try {
    ensureWritableDirectory(abs);
  } catch (err) {
    const reason = (err instanceof Error ? err.message : String(err)).replace(/\s*\n\s*/g, ' ');
    throw new UsageError(`${flag} ${abs} cannot be written: ${reason}`, { seeHelp: false });
  }
  return abs;
}

/** The exit code and the line a command's failure deserves. */
export function exitFor(name: string, err: unknown): { code: number; stream: 'stdout' | 'stderr'; text: string } {
  if (err instanceof HelpRequested) return { code: 0, stream: 'stdout', text: err.usage };
  if (err instanceof UsageError)
    return { code: 2, stream: 'stderr', text: `${name}: ${err.message}${err.seeHelp ? ' (see --help)' : ''}` };
  const message = err instanceof Error ? err.message : String(err);
  return { code: 1, stream: 'stderr', text: `${name}: ${message.replace(/\s*\n\s*/g, ' ')}` };
}

export interface RunCliOptions {
  /**
   * For a command that starts workers and servers: Ctrl-C or SIGTERM kills the workers and exits
   * 130; the servers are stopped by their own exit hooks (process-cleanup.ts) as the process ends.
   */
  stopsOnSignal?: boolean;
}

/**
 * What an interrupt stops before the process exits. The worker spawner (the test bed's
 * worker-process.ts) registers its kill here when it is loaded, so this module, which every
 * production worker imports, does not import the spawner.
 */
const onInterrupt: Array<() => void> = [];
export function stopOnInterrupt(stop: () => void): void {
  onInterrupt.push(stop);
}

/** Runs a command's main, whose number is the exit code; every failure ends as exitFor says. */
export function runCli(name: string, main: () => Promise<number>, opts: RunCliOptions = {}): void {
  if (opts.stopsOnSignal) {
    let interrupted = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (interrupted) return;
      interrupted = true;
      process.stderr.write(`${name}: ${signal}: stopping workers and infrastructure…\n`);
      for (const stop of onInterrupt) stop();
      process.exit(130);
    };
    // Stay subscribed (not `once`): the infra helpers re-raise a signal nobody else listens to, which
    // would end the process by the signal before the workers are killed and the exit code is set.
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      const { code, stream, text } = exitFor(name, err);
      process[stream].write(`${text}\n`);
      process.exit(code);
    },
  );
}
