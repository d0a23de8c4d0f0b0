/**
 * `pnpm bench`: what durability costs, measured. Per step against the plain runner's floor (and
 * each runtime bare), reviews at once through worker processes, what a finished run stores, and
 * recovery time against the timeouts that buy it, all in this one invocation on this machine.
 * Prints tables and progress; writes bench.json, bench.md and bench.html.
 *
 *   pnpm bench [--quick | --full | --smoke] [--section list] [--runtime list] [--harness] [--instrument] [--json] [--report-dir DIR]
 */
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { commaList, parseCli, runCli, UsageError, writableDirectory } from '@vendor-review/worker-io';
import { writeReport } from '../report-files.ts';
import { planFor, SECTIONS, type Preset, type SectionName } from './plan.ts';
import { benchRuntimeNames } from './benched.ts';

/**
 * The registry's runtimes with a bench, in its order: what --runtime accepts and its
 * default. The plain runner is the floor of every table, never a --runtime.
 */
const BENCH_RUNTIMES = await benchRuntimeNames();

const USAGE = `usage: pnpm bench [--quick | --full | --smoke] [options]
  --quick            the default: every measurement but the harness's, in a few minutes
  --full             also 64 reviews at once, more runs and kills per figure, and the default pnpm compare timed
  --smoke            the smallest inputs, for CI: proves the bench runs and its output keeps its shape
  --section list     only these: ${SECTIONS.join(',')}
  --runtime list     ${BENCH_RUNTIMES.join(',')} (default: all; the plain runner is always the floor)
  --harness          add the harness section (the default pnpm compare, timed) to --quick
  --instrument       lay the crash points' call sites over this process (armed at a point no run reaches), so
                     every call of the in-process reviews passes through them: what the instrument costs per step
  --json             print only the JSON report on stdout (progress on stderr)
  --report-dir DIR   where bench.json, bench.md and bench.html go (default: ./report)
  --window FILE      a results.json of pnpm compare --suite window: its time to durable goes beside the cost per
                     step (default: the report folder's results.json, when it holds the window suite)`;

const Options = z
  .object({
    quick: z.boolean().default(false),
    full: z.boolean().default(false),
    smoke: z.boolean().default(false),
    harness: z.boolean().default(false),
    instrument: z.boolean().default(false),
    json: z.boolean().default(false),
    'report-dir': z.string().min(1, '--report-dir needs a folder').default('report'),
  })
  .refine((o) => [o.quick, o.full, o.smoke].filter(Boolean).length <= 1, {
    message: 'give at most one of --quick, --full, --smoke',
  });

async function main(): Promise<number> {
  const { values } = parseCli({
    usage: USAGE,
    options: {
      quick: { type: 'boolean' },
      full: { type: 'boolean' },
      smoke: { type: 'boolean' },
      harness: { type: 'boolean' },
      instrument: { type: 'boolean' },
      section: { type: 'string' },
      runtime: { type: 'string' },
      json: { type: 'boolean' },
      'report-dir': { type: 'string' },
      window: { type: 'string' },
    },
  });
  const parsed = Options.safeParse(values);
  if (!parsed.success) throw new UsageError(parsed.error.issues[0]!.message);
  const o = parsed.data;
  const section = commaList('--section', values.section, SECTIONS);
  const runtime = commaList('--runtime', values.runtime, BENCH_RUNTIMES);
  // pnpm runs this from the package folder; a relative --report-dir means the caller's folder.
  const cwd = process.env.INIT_CWD ?? process.cwd();
  // Written only at the end: a folder that cannot take the report is refused before anything starts.
  const dir = writableDirectory('--report-dir', o['report-dir'], cwd);
  const preset: Preset = o.full ? 'full' : o.smoke ? 'smoke' : 'quick';
  const plan = planFor(preset, os.cpus().length);
  const sections: SectionName[] = section ?? [
    ...plan.sections,
    ...(o.harness && !plan.sections.includes('harness') ? (['harness'] as const) : []),
  ];
  plan.sections = sections;
  const runtimes = runtime ?? [...BENCH_RUNTIMES];
  const windowFile = values.window ? path.resolve(cwd, values.window) : path.join(dir, 'results.json');
  const { windowFigures } = await import('./window-figures.ts');
  const window = windowFigures(windowFile);
  if (values.window && typeof window === 'string') throw new UsageError(`--window: ${window}`);

  if (o.instrument) {
    const { armCrashPlan, installHttpWatch } = await import('@vendor-review/instrument');
    armCrashPlan(`after-deliver@${Number.MAX_SAFE_INTEGER}`);
    installHttpWatch();
  }
  const started = Date.now();
  const log = (line: string) =>
    process.stderr.write(`bench +${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s  ${line}\n`);
  const { runBench } = await import('./run.ts');
  const { report, failures } = await runBench({ plan, runtimes, log, startedAt: started, instrumented: o.instrument });
  report.window = typeof window === 'string' ? null : window;
  const { benchDocument } = await import('./document.ts');
  const { toHtml } = await import('../report/render-html.ts');
  const { toMarkdown } = await import('../report/render-markdown.ts');
  const files = {
    json: path.join(dir, 'bench.json'),
    md: path.join(dir, 'bench.md'),
    html: path.join(dir, 'bench.html'),
  };
  const json = () => `${JSON.stringify(report, null, 2)}\n`;
  const reportError = writeReport(
    [
      { path: files.json, render: json },
      { path: files.md, render: () => toMarkdown(benchDocument(report)) },
      { path: files.html, render: () => toHtml(benchDocument(report)) },
    ],
    { name: 'bench.json', text: json, cwd },
  );
  if (o.json) {
    process.stdout.write(json());
  } else {
    const { toText } = await import('../report/render-text.ts');
    process.stdout.write(
      `${toText(benchDocument(report))}\n${reportError ? '' : `\nreport: ${files.html}\n        ${files.md}\n        ${files.json}\n`}`,
    );
  }
  if (reportError) log(reportError);
  for (const f of failures) log(`a section could not finish: ${f}`);
  return failures.length || reportError ? 1 : 0;
}

runCli('bench', main, { stopsOnSignal: true });
