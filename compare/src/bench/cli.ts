/**
 * `pnpm bench`: what durability costs, measured. Per step against the plain runner's floor (and
 * each runtime bare), reviews at once through worker processes, what a finished run stores, and
 * recovery time against the timeouts that buy it, all in this one invocation on this machine.
 * Prints tables and progress; writes bench.json, bench.md and bench.html.
 *
 *   pnpm bench [--quick | --full | --smoke] [--section list] [--runtime list] [--harness] [--json] [--report-dir DIR]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { parseCli, runCli, UsageError } from '@vendor-review/domain/infra';
import { planFor, SECTIONS, type Preset, type SectionName } from './plan.ts';

const USAGE = `usage: pnpm bench [--quick | --full | --smoke] [options]
  --quick            the default: every measurement but the harness's, in a few minutes
  --full             also 64 reviews at once, more runs and kills per figure, and the default pnpm compare timed
  --smoke            the smallest inputs, for CI: proves the bench runs and its output keeps its shape
  --section list     only these: ${SECTIONS.join(',')}
  --runtime list     langgraph,temporal (default both; the plain runner is always the floor)
  --harness          add the harness section (the default pnpm compare, timed) to --quick
  --json             print only the JSON report on stdout (progress on stderr)
  --report-dir DIR   where bench.json, bench.md and bench.html go (default: ./report)`;

const list = <T extends string>(allowed: readonly T[], what: string) =>
  z
    .string()
    .optional()
    .transform((s, ctx): T[] | undefined => {
      if (s === undefined) return undefined;
      const items = [
        ...new Set(
          s
            .split(',')
            .map((x) => x.trim())
            .filter(Boolean),
        ),
      ];
      const bad = items.filter((i) => !(allowed as readonly string[]).includes(i));
      if (!items.length || bad.length) {
        ctx.addIssue({
          code: 'custom',
          message: `unknown ${what} "${bad.join(',') || s}" (known: ${allowed.join(', ')})`,
        });
        return z.NEVER;
      }
      return items as T[];
    });

const Options = z
  .object({
    quick: z.boolean().default(false),
    full: z.boolean().default(false),
    smoke: z.boolean().default(false),
    harness: z.boolean().default(false),
    section: list(SECTIONS, 'section'),
    runtime: list(['langgraph', 'temporal'] as const, 'runtime'),
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
      section: { type: 'string' },
      runtime: { type: 'string' },
      json: { type: 'boolean' },
      'report-dir': { type: 'string' },
    },
  });
  const parsed = Options.safeParse(values);
  if (!parsed.success) throw new UsageError(parsed.error.issues[0]!.message);
  const o = parsed.data;
  const preset: Preset = o.full ? 'full' : o.smoke ? 'smoke' : 'quick';
  const plan = planFor(preset, os.cpus().length);
  const sections: SectionName[] = o.section ?? [
    ...plan.sections,
    ...(o.harness && !plan.sections.includes('harness') ? (['harness'] as const) : []),
  ];
  plan.sections = sections;
  const runtimes = o.runtime ?? ['langgraph', 'temporal'];

  const started = Date.now();
  const log = (line: string) =>
    process.stderr.write(`bench +${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s  ${line}\n`);
  process.on('SIGINT', () => {
    log('interrupted: stopping workers and infrastructure…');
    void import('@vendor-review/domain/infra').then((m) => m.killAllWorkers()).finally(() => process.exit(130));
  });

  const { runBench } = await import('./run.ts');
  const { report, failures } = await runBench({ plan, runtimes, log, startedAt: started });
  const dir = path.resolve(process.env.INIT_CWD ?? process.cwd(), o['report-dir']);
  mkdirSync(dir, { recursive: true });
  const { renderMarkdown } = await import('./render-md.ts');
  const { renderBenchHtml } = await import('./render-html.ts');
  const files = {
    json: path.join(dir, 'bench.json'),
    md: path.join(dir, 'bench.md'),
    html: path.join(dir, 'bench.html'),
  };
  writeFileSync(files.json, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(files.md, renderMarkdown(report));
  writeFileSync(files.html, renderBenchHtml(report));
  if (o.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    const { renderText } = await import('./render-text.ts');
    process.stdout.write(
      `${renderText(report)}\n\nreport: ${files.html}\n        ${files.md}\n        ${files.json}\n`,
    );
  }
  for (const f of failures) log(`a section could not finish: ${f}`);
  return failures.length ? 1 : 0;
}

runCli('bench', main);
