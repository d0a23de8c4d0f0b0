import path from 'node:path';
import { z } from 'zod';
import { parseCli, UsageError, wholeNumber, writableDirectory } from '@vendor-review/worker-io';

/** What `pnpm crash-test` was asked to do, parsed once at the edge; the rest takes plain values. */
export interface CrashTestOptions {
  module: string;
  runtime?: 'langgraph' | 'functional' | 'temporal';
  activities?: string;
  workflow?: string;
  input?: unknown;
  resume?: { value: unknown };
  signals: { name: string; args: unknown[] }[];
  durability?: 'sync' | 'async' | 'exit';
  calls?: string[];
  steps?: string[];
  maxCells?: number;
  stop: 'kill' | 'term';
  live: boolean;
  concurrency: number;
  boundSeconds: number;
  reportDir: string;
  prices: Record<string, [number, number]>;
  profile: boolean;
  json: boolean;
  /** The user's directory: relative paths are read from here, workers start here. */
  cwd: string;
}

export const USAGE = `usage: pnpm crash-test <module> [options]
  Crashes a worker of your LangGraph graph or Temporal workflow at every point its baseline run
  passes (after each outbound HTTP call returned, while each is in flight, as each step begins),
  lets the runtime resume the run in a fresh worker, and reports what went out twice.
  <module>                      a LangGraph module (exports \`graph\`, a builder or compiled graph, or
                                \`build(checkpointer)\`, or an \`entrypoint\`; and \`input\`), or a Temporal
                                workflows module (with --activities and --workflow)
  --runtime  langgraph|functional|temporal   default: from the module's exports
  --activities <module>         Temporal: the activities (an object of functions, or createActivities())
  --workflow <type>             Temporal: the workflow type (default: the module's only workflow)
  --input    <json>             the input (LangGraph; default: the module's \`input\`) or the workflow's
                                arguments (a JSON array, or one value)
  --resume   <json>             LangGraph: answers each interrupt() with Command({ resume: <json> })
  --signal   name=<json>        Temporal: a signal sent after the start (repeatable)
  --durability sync|async|exit  LangGraph's durability mode (default: LangGraph's own)
  --calls    host/path[#n][,…]  only the cells at calls whose host/path contains one of these
                                (#n: only its nth occurrence)
  --steps    name[#n][,…]       only the cells at these steps (#n: its nth beginning; with --calls: both)
  --max-cells N                 at most N cells, spread over the run
  --stop     kill|term          how worker A leaves (default kill: SIGKILL; term: SIGTERM, SIGKILL after 5 s)
  --live                        send every call to the real endpoints (default: replay the baseline's answers)
  --price    model=in/out       USD per million input/output tokens, for the cost column (repeatable)
  --concurrency N               cells side by side (default 2)
  --bound    seconds            how long each worker may take before the cell is stuck (default 60)
  --report-dir <dir>            where results.json and report.html go (default ./crash-test-report)
  --profile                     where each cell's time went (worker starts, the runtime's waits)
  --json                        print results.json instead of the table
  --help`;

const json = (flag: string) =>
  z.string().transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: `${flag} must be JSON, got ${JSON.stringify(text)}` });
      return z.NEVER;
    }
  });

const Signal = z.string().transform((text, ctx) => {
  const eq = text.indexOf('=');
  const name = text.slice(0, eq);
  if (eq <= 0) {
    ctx.addIssue({ code: 'custom', message: `--signal must be name=<json>, got ${JSON.stringify(text)}` });
    return z.NEVER;
  }
  const value = json('--signal').safeParse(text.slice(eq + 1));
  if (!value.success) {
    ctx.addIssue({ code: 'custom', message: value.error.issues[0]!.message });
    return z.NEVER;
  }
  return { name, args: Array.isArray(value.data) ? value.data : [value.data] };
});

const Price = z.string().transform((text, ctx) => {
  const m = /^(.+)=(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/.exec(text);
  if (!m) {
    ctx.addIssue({
      code: 'custom',
      message: `--price must be model=in/out (USD per million tokens), got ${JSON.stringify(text)}`,
    });
    return z.NEVER;
  }
  return [m[1]!, [Number(m[2]), Number(m[3])]] as const;
});

const Raw = z.object({
  runtime: z
    .enum(['langgraph', 'functional', 'temporal'], { message: '--runtime must be langgraph, functional or temporal' })
    .optional(),
  durability: z.enum(['sync', 'async', 'exit'], { message: '--durability must be sync, async or exit' }).optional(),
  stop: z.enum(['kill', 'term'], { message: '--stop must be kill or term' }).default('kill'),
  input: json('--input').optional(),
  resume: json('--resume').optional(),
  signal: z.array(Signal).default([]),
  price: z.array(Price).default([]),
});

const STRING_NAMES = [
  'runtime',
  'activities',
  'workflow',
  'input',
  'resume',
  'durability',
  'calls',
  'steps',
  'max-cells',
  'stop',
  'concurrency',
  'bound',
  'report-dir',
] as const;
const STRING_OPTIONS = Object.fromEntries(STRING_NAMES.map((name) => [name, { type: 'string' }])) as Record<
  (typeof STRING_NAMES)[number],
  { type: 'string' }
>;

const list = (text: string | undefined) =>
  text
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export function parseOptions(argv: string[], cwd: string): CrashTestOptions {
  const { values, positionals } = parseCli(
    {
      usage: USAGE,
      allowPositionals: true,
      options: {
        ...STRING_OPTIONS,
        signal: { type: 'string', multiple: true },
        price: { type: 'string', multiple: true },
        live: { type: 'boolean' },
        profile: { type: 'boolean' },
        json: { type: 'boolean' },
      },
    },
    argv,
  );
  if (positionals.length !== 1) throw new UsageError('give exactly one module: pnpm crash-test <module> [options]');
  const parsed = Raw.safeParse(values);
  if (!parsed.success) throw new UsageError(parsed.error.issues[0]!.message);
  const r = parsed.data;
  if (values.activities && r.runtime && r.runtime !== 'temporal')
    throw new UsageError('--activities is for --runtime temporal');
  const maxCells = wholeNumber('--max-cells', values['max-cells'], { min: 1, max: 10_000 });
  return {
    module: path.resolve(cwd, positionals[0]!),
    ...(r.runtime ? { runtime: r.runtime } : {}),
    ...(values.activities ? { activities: path.resolve(cwd, values.activities) } : {}),
    ...(values.workflow ? { workflow: values.workflow } : {}),
    ...('input' in r && r.input !== undefined ? { input: r.input } : {}),
    ...(r.resume !== undefined ? { resume: { value: r.resume } } : {}),
    signals: r.signal,
    ...(r.durability ? { durability: r.durability } : {}),
    ...(values.calls ? { calls: list(values.calls)! } : {}),
    ...(values.steps ? { steps: list(values.steps)! } : {}),
    ...(maxCells !== undefined ? { maxCells } : {}),
    stop: r.stop,
    live: values.live ?? false,
    concurrency: wholeNumber('--concurrency', values.concurrency, { min: 1, max: 32 }) ?? 2,
    boundSeconds: wholeNumber('--bound', values.bound, { min: 1, max: 3600 }) ?? 60,
    reportDir: writableDirectory('--report-dir', values['report-dir'] ?? 'crash-test-report', cwd),
    prices: Object.fromEntries(r.price.map(([m, p]) => [m, [p[0], p[1]]])),
    profile: values.profile ?? false,
    json: values.json ?? false,
    cwd,
  };
}
