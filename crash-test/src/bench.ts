import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCli, runCli, wholeNumber } from '@vendor-review/worker-io';
import { startExampleServices } from '../examples/services.ts';
import { crashTest } from './crash-test.ts';

/**
 * How long `pnpm crash-test` takes on an app of ten outbound calls and four steps, every derived
 * cell (24: each call in flight and after it returned, each step), cells side by side as the tool
 * runs them. It prints the figure and where a cell's time goes; figures belong in the README,
 * measured on a quiet machine, never in code.
 */
const USAGE = `usage: pnpm --dir crash-test bench [--concurrency N]
  crash-tests examples/bench/graph.ts (LangGraph, 10 outbound calls, 4 steps) over every derived cell
  and prints the wall time, the cells, and the mean time of each phase (worker A, worker B)
  --concurrency N   cells side by side (default 2)`;

runCli('crash-test bench', async () => {
  const { values } = parseCli({ usage: USAGE, options: { concurrency: { type: 'string' } } });
  const concurrency = wholeNumber('--concurrency', values.concurrency, { min: 1, max: 32 }) ?? 2;
  const pkg = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
  const services = await startExampleServices();
  process.env.EXAMPLE_API_URL = services.url;
  try {
    const started = performance.now();
    const r = await crashTest(
      {
        module: path.join(pkg, 'examples/bench/graph.ts'),
        signals: [],
        stop: 'kill',
        live: false,
        concurrency,
        boundSeconds: 120,
        reportDir: os.tmpdir(),
        prices: {},
        profile: true,
        json: false,
        cwd: pkg,
      },
      () => {},
    );
    const wallMs = performance.now() - started;
    const phases = new Map<string, number[]>();
    for (const f of r.findings)
      for (const [k, v] of Object.entries(f.profile)) phases.set(k, [...(phases.get(k) ?? []), v]);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    process.stdout.write(
      [
        `crash-test bench: ${r.baseline.calls.length} calls, ${r.baseline.steps.length} steps, ${r.findings.length} cells, concurrency ${concurrency}`,
        `wall time ${(wallMs / 1000).toFixed(1)} s (baseline ${(r.baseline.ms / 1000).toFixed(1)} s), ${os.availableParallelism()} cores, load ${os.loadavg()[0]!.toFixed(2)}`,
        ...[...phases].map(([k, xs]) => `  ${k}: mean ${(mean(xs) / 1000).toFixed(2)} s over ${xs.length} cells`),
        `  cells that did not end: ${r.findings.filter((f) => f.stuck).length}`,
      ].join('\n') + '\n',
    );
    return 0;
  } finally {
    await services.close();
  }
});
