/**
 * `pnpm lab <command>`: crash a run by hand and see what it cost. Each command reads its command
 * line through the project's one helper: `--help` exits 0, a mistake is one line and exit 2.
 */
import { CRASH_POINT_NAMES, CrashPlanError, formatCrashPlan, parseCrashPlan } from '@vendor-review/instrument';
import { commaList, parseCli, runCli, UsageError, wholeNumber } from '@vendor-review/worker-io';
import { VENDOR_SLUGS } from '@vendor-review/world';
import { runtimeInfos } from '../runtimes.ts';
import { checkFilter, parseDurability, parseGranularity, parseVariant } from './config.ts';
import { labRuntime } from './runtimes.ts';
import { labDir, LAB_RUNTIMES, requireUp } from './state.ts';

/** The registry's runtimes, in its order, that the lab serves (state.ts: those of the production suite). */
const LAB_RUNTIME_NAMES = LAB_RUNTIMES;
const ONE_OF = LAB_RUNTIMES.join('|');

// Each command's module is loaded once its command line is read: --help and a typo cost nothing.

const USAGE = `usage: pnpm lab <command> [options]   (pnpm lab <command> --help for one command)
  up                                       start the world, PostgreSQL and the runtimes' own servers (with their UIs) in the background
  down                                     stop them
  worker RUNTIME                           a worker in this terminal that prints each step; kill it mid-run
  start RUNTIME --vendor NAME              start a review (or --request FILE); a lab worker runs it
  approve RUN [--reject]                   the human decision a review waits for
  show RUN                                 status, durable record, ledger timeline and what repeated, as pnpm compare judges it
  runs                                     the runs of this lab
RUNTIME: ${LAB_RUNTIMES.join(', ')}
State lives in .lab/ at the repo root (LAB_DIR to put it elsewhere).`;

/** `--crash` as the instrument reads it: a plan naming an unknown point is one line and exit 2. */
function parseCrash(text: string | undefined): string | null {
  if (text === undefined) return null;
  try {
    const plan = parseCrashPlan(text);
    if (plan.length === 0) throw new UsageError('--crash needs a crash point');
    return formatCrashPlan(plan);
  } catch (err) {
    if (err instanceof CrashPlanError) throw new UsageError(`--crash: ${err.message}`, { seeHelp: false });
    throw err;
  }
}

const COMMANDS: Record<string, { usage: string; run: (argv: string[]) => Promise<number> }> = {
  up: {
    usage: `usage: pnpm lab up [--runtime ${LAB_RUNTIMES.join(',')}] [--model-latency MS] [--page-latency MS] [--world-port N]
  starts the simulated world, PostgreSQL (embedded unless DATABASE_URL) and the servers the runtimes
  declare (each on a data file, with its web UI where it has one), in the background; prints where they
  are. Harmless when the lab is up.
  --runtime        which runtimes to serve (default: all of them, the registered runtimes of the production
                   suite: one without durability has no record to show; a runtime's server only when it is served)
  --model-latency  how long the world's model takes to answer, in ms (default 1500: time to kill mid-call)
  --page-latency   how long a vendor page takes, in ms (default 200)
  --world-port     the world's port (default: any free one)`,
    async run(argv) {
      const { values } = parseCli(
        {
          usage: COMMANDS.up!.usage,
          options: {
            runtime: { type: 'string', default: LAB_RUNTIMES.join(',') },
            'model-latency': { type: 'string', default: '1500' },
            'page-latency': { type: 'string', default: '200' },
            'world-port': { type: 'string', default: '0' },
          },
        },
        argv,
      );
      const runtimes = commaList('--runtime', values.runtime, LAB_RUNTIME_NAMES)!;
      const { labUp } = await import('./up.ts');
      return labUp(labDir(), {
        runtimes,
        modelLatencyMs: wholeNumber('--model-latency', values['model-latency'], { min: 0, max: 60_000 })!,
        pageLatencyMs: wholeNumber('--page-latency', values['page-latency'], { min: 0, max: 60_000 })!,
        worldPort: wholeNumber('--world-port', values['world-port'], { min: 0, max: 65_535 })!,
      });
    },
  },
  down: {
    usage: `usage: pnpm lab down
  stops the lab's servers and any lab worker still running; the lab's files stay until the next lab up`,
    async run(argv) {
      parseCli({ usage: COMMANDS.down!.usage, options: {} }, argv);
      const { labDown } = await import('./up.ts');
      return labDown(labDir());
    },
  },
  worker: {
    usage: `usage: pnpm lab worker ${ONE_OF} [--variant naive|hardened] [--durability sync|async|exit] [--crash POINT]
  a worker in this terminal. It takes this lab's runs of that runtime that need an owner (not finished,
  not run by a live worker), only those of the variant / durability given if any, each in a worker
  process of its own started as pnpm compare starts one, which prints every step as it starts and
  finishes and every call it makes; the world's bill for each model call is printed beside them.
  Crash it: kill -9 the pid of a [worker …] line from another terminal, or Ctrl-C here (the lab sends
  SIGKILL to its worker processes, as a lost machine would). Then start it again: it resumes.
  --crash       let the worker die by itself at a crash point instead, as pnpm compare's worker A does:
                ${CRASH_POINT_NAMES.join(', ')}; point@n for the n-th time, point:stop to freeze it`,
    async run(argv) {
      const { values, positionals } = parseCli(
        {
          usage: COMMANDS.worker!.usage,
          options: { variant: { type: 'string' }, durability: { type: 'string' }, crash: { type: 'string' } },
          allowPositionals: true,
        },
        argv,
      );
      const runtime = onePositional(positionals, 'runtime', labRuntime);
      const variant = parseVariant(values.variant);
      const durability = parseDurability(values.durability);
      const crash = parseCrash(values.crash);
      const [info] = await runtimeInfos([runtime]);
      checkFilter(info!, variant, durability);
      const dir = labDir();
      const state = requireUp(dir);
      const { runLabWorker } = await import('./worker.ts');
      return runLabWorker(dir, state, { runtime, variant, durability, crash });
    },
  },
  start: {
    usage: `usage: pnpm lab start ${ONE_OF} (--vendor NAME | --request FILE) [--variant naive|hardened]
                     [--durability sync|async|exit] [--granularity fine|per-requirement|coarse]
  starts a review through the runtime's adapter; a lab worker runs it.
  --vendor      one of the world's vendors: ${VENDOR_SLUGS.join(', ')}
  --request     a request file (see shared-domain/world/fixtures/)
  --variant     naive (default: the tutorial way) or hardened (keys, lease or outbox)
  --durability  naive, for a runtime with durability modes: async (default), sync or exit
  --granularity where the durable boundaries are: fine (default: one per step), per-requirement, coarse`,
    async run(argv) {
      const { values, positionals } = parseCli(
        {
          usage: COMMANDS.start!.usage,
          options: {
            vendor: { type: 'string' },
            request: { type: 'string' },
            variant: { type: 'string' },
            durability: { type: 'string' },
            granularity: { type: 'string' },
          },
          allowPositionals: true,
        },
        argv,
      );
      const { startLabRun } = await import('./start.ts');
      return startLabRun(labDir(), {
        runtime: onePositional(positionals, 'runtime', labRuntime),
        vendor: values.vendor,
        requestFile: values.request,
        variant: parseVariant(values.variant),
        durability: parseDurability(values.durability),
        granularity: parseGranularity(values.granularity),
      });
    },
  },
  approve: {
    usage: `usage: pnpm lab approve RUN [--reject] [--by NAME] [--note TEXT]
  records the human decision the run waits for (or will wait for); no worker needs to be alive`,
    async run(argv) {
      const { values, positionals } = parseCli(
        {
          usage: COMMANDS.approve!.usage,
          options: { reject: { type: 'boolean', default: false }, by: { type: 'string' }, note: { type: 'string' } },
          allowPositionals: true,
        },
        argv,
      );
      const { approveLabRun } = await import('./approve.ts');
      return approveLabRun(labDir(), {
        runId: onePositional(positionals, 'run', (s) => s),
        approved: !values.reject,
        by: values.by,
        note: values.note,
      });
    },
  },
  show: {
    usage: `usage: pnpm lab show RUN [--json]
  the run's status, its durable record (checkpoints, history events or journal rows, with step and
  writer, and a UI link where the runtime has one), its ledger as a timeline with the re-executions marked, and what repeated
  and what it cost, judged as pnpm compare judges a cell: against an uncrashed run of the same review,
  which the lab runs once (the first show of a review takes one run longer)`,
    async run(argv) {
      const { values, positionals } = parseCli(
        {
          usage: COMMANDS.show!.usage,
          options: { json: { type: 'boolean', default: false } },
          allowPositionals: true,
        },
        argv,
      );
      const { showLabRun } = await import('./show.ts');
      return showLabRun(
        labDir(),
        onePositional(positionals, 'run', (s) => s),
        { json: values.json },
      );
    },
  },
  runs: {
    usage: `usage: pnpm lab runs [--json]
  the runs started in this lab, with their status and worker processes`,
    async run(argv) {
      const { values } = parseCli(
        { usage: COMMANDS.runs!.usage, options: { json: { type: 'boolean', default: false } } },
        argv,
      );
      const { listLabRuns } = await import('./list.ts');
      return listLabRuns(labDir(), { json: values.json });
    },
  },
};

function onePositional<T>(positionals: string[], what: string, parse: (s: string | undefined) => T): T {
  if (positionals.length > 1) throw new UsageError(`one ${what} only, got: ${positionals.join(' ')}`);
  return parse(positionals[0]);
}

runCli('lab', async () => {
  const [command, ...rest] = process.argv.slice(2);
  if (command === undefined || command === '--help' || command === '-h') {
    if (command === undefined) throw new UsageError(`name a command: ${Object.keys(COMMANDS).join(', ')}`);
    parseCli({ usage: USAGE, options: {} }, ['--help']);
  }
  const c = COMMANDS[command!];
  if (!c) throw new UsageError(`unknown command "${command}": ${Object.keys(COMMANDS).join(', ')}`);
  return c.run(rest);
});
