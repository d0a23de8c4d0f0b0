/**
 * `pnpm chaos`: N reviews per runtime × variant under a seeded fault schedule, judged from the
 * outside (see run-chaos.ts). Exit codes: 0 every hardened variant is clean (no stuck run, no
 * duplicate effect, no late write), 1 one is not or the campaign could not run, 2 a usage mistake.
 * The options are checked before anything heavy is loaded.
 */
import { runCli, writableDirectory } from '@vendor-review/worker-io';
import { parseChaosArgs } from './args.ts';

async function main(argv: string[]): Promise<number> {
  const opts = parseChaosArgs(argv);
  // Written only at the end: a folder that cannot take the report is refused before anything starts.
  writableDirectory('--report-dir', opts.reportDir);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const { runChaos } = await import('./run-chaos.ts');
  const color = !opts.json && Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
  const out = await runChaos(opts, {
    log,
    command: ['pnpm chaos', ...argv].join(' '),
    progress: {
      tty: Boolean(process.stderr.isTTY),
      ...(process.stderr.columns ? { columns: process.stderr.columns } : {}),
      write: (text) => process.stderr.write(text),
    },
  });
  if (opts.json) process.stdout.write(`${JSON.stringify(out.result, null, 2)}\n`);
  else {
    const { chaosDocument } = await import('./document.ts');
    const { toText } = await import('../report/render-text.ts');
    process.stdout.write(
      `${toText(chaosDocument(out.result), { color })}\n${out.reportError ? '' : `\nreport: ${out.files.html}\n        ${out.files.json}\n`}`,
    );
  }
  if (out.reportError) {
    log(`chaos: ${out.reportError}`);
    return 1;
  }
  return out.clean ? 0 : 1;
}

runCli('chaos', () => main(process.argv.slice(2)), { stopsOnSignal: true });
