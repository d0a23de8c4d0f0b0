import { z } from 'zod';
import {
  CRASH_POINT_NAMES,
  DURABILITIES,
  VARIANTS,
  type CrashPointName,
  type Durability,
  type Suite,
  type Variant,
} from '@vendor-review/domain';
import { parseCli, UsageError } from '@vendor-review/domain/infra';
import { RUNTIME_NAMES } from './runtimes.ts';

export { UsageError };

const SUITES: readonly Suite[] = ['crash', 'production'];

export interface CompareOptions {
  /** Which suites (default both): crash points, production hazards. */
  suites: Suite[];
  runtimes?: string[];
  variants?: Variant[];
  crashPoints?: CrashPointName[];
  durabilities?: Durability[];
  repeat: number;
  json: boolean;
  reportDir: string;
  keepInfra: boolean;
  concurrency: number;
  /** Seconds a phase (worker A until the crash, worker B until done) may take before the cell is "stuck". */
  boundSeconds: number;
}

export const USAGE = `usage: pnpm compare [options]
  --suite    crash,production            which suites (default: both): crash points, production hazards
  --runtime  langgraph,temporal,plain    which runtimes (default: all three)
  --variant  naive,hardened              which variants (default: both; baselines always run)
  --crash    <point>[,<point>…]          crash points (default: all): ${CRASH_POINT_NAMES.join(', ')}
  --durability sync,async,exit           LangGraph naive durability modes (default: all three)
  --repeat N                             run every cell N times and report timing statistics
  --concurrency N                        cells run at once (default: 4)
  --bound S                              seconds before a waiting phase is declared stuck (default: 90)
  --json                                 print only the results JSON on stdout (progress on stderr)
  --report-dir DIR                       where results.json, results.md, report.html go (default: ./report)
  --keep-infra                           leave the world, PostgreSQL and Temporal running at the end`;

function commaList<T extends string>(label: string, allowed: readonly T[]) {
  return z
    .string()
    .optional()
    .transform((text, ctx): T[] | undefined => {
      if (text === undefined) return undefined;
      const items = text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      if (items.length === 0) {
        ctx.addIssue({ code: 'custom', message: `--${label} needs at least one of: ${allowed.join(', ')}` });
        return z.NEVER;
      }
      const unknown = items.filter((i) => !(allowed as readonly string[]).includes(i));
      if (unknown.length) {
        const what = label === 'crash' ? 'crash point' : label;
        ctx.addIssue({
          code: 'custom',
          message: `unknown ${what} ${unknown.map((u) => `"${u}"`).join(', ')} (known: ${allowed.join(', ')})`,
        });
        return z.NEVER;
      }
      return [...new Set(items)] as T[];
    });
}

function positiveInt(label: string, fallback: number, max: number) {
  return z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined) return fallback;
      const n = Number(text);
      if (!Number.isInteger(n) || n < 1 || n > max) {
        ctx.addIssue({ code: 'custom', message: `--${label} must be a whole number from 1 to ${max}, got "${text}"` });
        return z.NEVER;
      }
      return n;
    });
}

const OptionsSchema = z.object({
  suite: commaList('suite', SUITES),
  runtime: commaList('runtime', RUNTIME_NAMES),
  variant: commaList('variant', VARIANTS),
  crash: commaList('crash', CRASH_POINT_NAMES),
  durability: commaList('durability', DURABILITIES),
  repeat: positiveInt('repeat', 1, 50),
  concurrency: positiveInt('concurrency', 4, 32),
  bound: positiveInt('bound', 90, 600),
  json: z.boolean().default(false),
  'report-dir': z.string().min(1, '--report-dir needs a folder').default('report'),
  'keep-infra': z.boolean().default(false),
});

/** Parses argv (without node and script); throws UsageError with one readable line, HelpRequested on --help. */
export function parseCompareArgs(argv: string[]): CompareOptions {
  const { values } = parseCli(
    {
      usage: USAGE,
      options: {
        suite: { type: 'string' },
        runtime: { type: 'string' },
        variant: { type: 'string' },
        crash: { type: 'string' },
        durability: { type: 'string' },
        repeat: { type: 'string' },
        concurrency: { type: 'string' },
        bound: { type: 'string' },
        json: { type: 'boolean' },
        'report-dir': { type: 'string' },
        'keep-infra': { type: 'boolean' },
      },
    },
    argv,
  );
  const parsed = OptionsSchema.safeParse(values);
  if (!parsed.success) throw new UsageError(parsed.error.issues[0]!.message);
  const o = parsed.data;
  return {
    suites: o.suite ?? [...SUITES],
    runtimes: o.runtime,
    variants: o.variant,
    crashPoints: o.crash,
    durabilities: o.durability,
    repeat: o.repeat,
    json: o.json,
    reportDir: o['report-dir'],
    keepInfra: o['keep-infra'],
    concurrency: o.concurrency,
    boundSeconds: o.bound,
  };
}
