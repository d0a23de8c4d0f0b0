/**
 * `pnpm compare`: bring up everything, crash both runtimes at every crash point, tabulate what
 * re-executed, write the report. Exit codes: 0 all cells ran, 1 a cell could not run (it is in the
 * table as "error"), 2 a usage mistake. Options are checked before anything heavy is even loaded.
 */
import { runCli, writableDirectory } from '@vendor-review/worker-io';
import { parseCompareArgs, UsageError } from './cli.ts';
import { seconds } from './table.ts';

async function main(argv: string[]): Promise<number> {
  const opts = parseCompareArgs(argv);
  if (opts.clean) return clean();
  // Written only at the end: a folder that cannot take the report is refused before anything starts.
  opts.reportDir = writableDirectory('--report-dir', opts.reportDir, process.env.INIT_CWD ?? process.cwd());
  const color = !opts.json && Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
  const log = (line: string) => process.stderr.write(`${line}\n`);

  const { runCompare } = await import('./run-compare.ts');
  const result = await runCompare(opts, {
    log,
    color,
    command: ['pnpm compare', ...argv].join(' '),
    progress: {
      tty: Boolean(process.stderr.isTTY),
      ...(process.stderr.columns ? { columns: process.stderr.columns } : {}),
      write: (text) => process.stderr.write(text),
    },
    // The terminal's width when there is one (full labels when there is room); never below the 120-column layout.
    ...(process.stdout.isTTY && process.stdout.columns ? { width: process.stdout.columns } : {}),
  });
  if (opts.json) {
    process.stdout.write(`${JSON.stringify(result.results, null, 2)}\n`);
  } else {
    process.stdout.write(`${result.table}\n`);
    if (result.profile) process.stdout.write(`\n${result.profile}\n`);
    if (!result.reportError)
      process.stdout.write(
        `\nreport: ${result.files.html}\n        ${result.files.md}\n        ${result.files.json}\n${result.files.profile ? `        ${result.files.profile}\n` : ''}`,
      );
    process.stdout.write(`wall time: ${seconds(result.results.meta.wallTimeMs)}\n`);
  }
  if (result.reportError) {
    log(`compare: ${result.reportError}`);
    return 1;
  }
  if (result.exitCode)
    log(`compare: ${result.results.meta.notRun} cell(s) could not run; see the table and ${result.files.md}`);
  if (opts.keepInfra) await new Promise(() => {});
  return result.exitCode;
}

/** `--clean`: drop the databases earlier runs recorded in DATABASE_URL's database, and nothing else. */
async function clean(): Promise<number> {
  const url = process.env.DATABASE_URL?.trim();
  if (!url)
    throw new UsageError('--clean needs DATABASE_URL: runs on the embedded PostgreSQL leave nothing behind to clean');
  const { cleanInvocations } = await import('./database-runs.ts');
  const { maskDatabaseUrl } = await import('@vendor-review/testbed');
  const dropped = await cleanInvocations(url);
  process.stdout.write(
    dropped.length
      ? `compare --clean: removed ${dropped.length} database(s) earlier runs created beside ${maskDatabaseUrl(url)}: ${dropped.join(', ')}\n`
      : `compare --clean: nothing to remove beside ${maskDatabaseUrl(url)}\n`,
  );
  return 0;
}

runCli('compare', () => main(process.argv.slice(2)), { stopsOnSignal: true });
