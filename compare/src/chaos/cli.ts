/**
 * `pnpm chaos`: N reviews per runtime × variant under a seeded fault schedule, judged from the
 * outside (see run-chaos.ts). Exit codes: 0 every hardened variant is clean (no stuck run, no
 * duplicate effect, no late write), 1 one is not or the campaign could not run, 2 a usage mistake.
 * The options are checked before anything heavy is loaded.
 */
import { runCli } from '@vendor-review/domain/infra';
import { parseChaosArgs } from './args.ts';

async function main(argv: string[]): Promise<number> {
  const opts = parseChaosArgs(argv);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = true;
    log(`chaos: ${signal}: stopping workers and infrastructure…`);
    // The infra helpers' exit hooks stop the servers; the workers are ours to kill.
    void import('@vendor-review/domain/infra').then((m) => m.killAllWorkers()).finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
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
    const { renderChaosTable } = await import('./table.ts');
    process.stdout.write(
      `${renderChaosTable(out.result, { color })}\n\nreport: ${out.files.html}\n        ${out.files.json}\n`,
    );
  }
  return out.clean ? 0 : 1;
}

runCli('chaos', () => main(process.argv.slice(2)));
