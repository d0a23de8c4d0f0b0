/**
 * The comparison as a function: plan the selected suites, bring up the infrastructure, run each
 * suite on the shared lanes, write the report. `compare.ts` is the command around it; the
 * end-to-end tests call it directly. What a suite is, and what each does, is suites/.
 */
import os from 'node:os';
import path from 'node:path';
import { cellRequest, type RuntimeInfo } from '@vendor-review/conformance';
import { UsageError } from '@vendor-review/worker-io';
import { environmentReport } from './environment.ts';
import { expectedTimes, type ExpectedTimes } from './expected-times.ts';
import { serverVersions, startInfra, type Infra, type InfraOptions } from './infra.ts';
import { NO_OBSERVER, type RunObserver } from './observer.ts';
import type { CompareOptions } from './options.ts';
import { profiler } from './profile.ts';
import { createProgress, type Progress } from './progress.ts';
import type { ReportDocument } from './report/document.ts';
import { writeReport } from './report-files.ts';
import { toHtml } from './report/render-html.ts';
import { toMarkdown } from './report/render-markdown.ts';
import { toText } from './report/render-text.ts';
import { resultsDocument } from './report/results-document.ts';
import { SCHEMA_VERSION, validateResults, type Row } from './report/results-schema.ts';
import { exitCodeFor, type Results } from './report/results.ts';
import { RUNTIME_NAMES, runtimeInfos, runtimeVersions } from './runtimes.ts';
import { SUITES } from './suites/index.ts';
import type { Lanes, Suite, SuitePlan, SuiteRun } from './suites/suite.ts';
import { seconds, TABLE_WIDTH } from './table.ts';

export interface RunCompareResult {
  results: Results;
  /** What each suite's run observed, by suite (`observedBy` reads one suite's). */
  observed: Readonly<Record<string, readonly unknown[]>>;
  table: string;
  /** What the observer saw (`--profile`: where the time went), or null. */
  profile: string | null;
  files: { json: string; md: string; html: string; profile?: string };
  /** Why the report is not (all) in `files`, and where the results were saved instead; null when it is. */
  reportError: string | null;
  exitCode: 0 | 1;
}

/** What one suite's run observed (its cells, its hazard runs), typed as the suite says. */
export function observedBy<O>(result: Pick<RunCompareResult, 'observed'>, suite: Suite<SuitePlan, O>): O[] {
  return [...((result.observed[suite.name] ?? []) as readonly O[])];
}

export interface CompareIo {
  log: (line: string) => void;
  color: boolean;
  infra?: Infra;
  /** A terminal gets a live footer; anything else a heartbeat line every few seconds (through `log`). */
  progress?: { tty: boolean; columns?: number; write: (text: string) => void; heartbeatMs?: number };
  /** Width of the terminal table (at least TABLE_WIDTH). */
  width?: number;
  /** Where the settings were read (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** The command line, recorded beside the run's database in a user's PostgreSQL. */
  command?: string;
  /** The suites `opts.suites` names are looked up in, in report order (default: the registry, suites/index.ts). */
  suites?: readonly Suite[];
}

/** A suite with its plan. */
export interface Planned {
  suite: Suite;
  plan: SuitePlan;
}

/** The suites named, in the registry's order; a name it does not have is a usage mistake. */
export function selectSuites(registry: readonly Suite[], names: readonly string[]): Suite[] {
  const unknown = names.filter((n) => !registry.some((s) => s.name === n));
  if (unknown.length)
    throw new UsageError(
      `unknown suite ${unknown.map((u) => `"${u}"`).join(', ')} (known: ${registry.map((s) => s.name).join(', ')})`,
    );
  return registry.filter((s) => names.includes(s.name));
}

/**
 * What the planned runs are expected to take, for the ETA: each as a past run measured it, one
 * that none did as the typical run (the mean of those measured; 3 s when none was).
 */
export function etaOf(plans: readonly Pick<SuitePlan, 'expectedMs'>[]): {
  runs: number;
  typicalMs: number;
  totalMs: number;
} {
  const all = plans.flatMap((p) => p.expectedMs);
  const known = all.filter((ms): ms is number => ms !== null);
  const typicalMs = known.length ? known.reduce((a, b) => a + b, 0) / known.length : 3_000;
  return { runs: all.length, typicalMs, totalMs: all.reduce<number>((sum, ms) => sum + (ms ?? typicalMs), 0) };
}

/** What the plans ask of the infrastructure beyond the shared servers (the restart hazards' servers). */
function infraNeeds(planned: readonly Planned[]): Pick<InfraOptions, 'restartServers'> {
  const restarts = planned.flatMap((p) => p.plan.infra?.restartServers ?? []);
  return restarts.length ? { restartServers: restarts.includes('every') ? 'every' : restarts[0]! } : {};
}

/** The lines before the infrastructure starts: what runs on the shared lanes, then what runs alone before them. */
function announce(planned: readonly Planned[], runtimes: readonly string[], opts: CompareOptions): string[] {
  const said = (phase: Suite['phase'][]) =>
    planned.filter((p) => phase.includes(p.suite.phase) && p.plan.summary).map((p) => p.plan.summary!);
  const shared = said(['lead', 'beside']);
  const [first = 'nothing to run', ...rest] = [...(shared.length ? [shared.join(' and ')] : []), ...said(['alone'])];
  return [
    `compare: ${first} (${runtimes.join(', ')}), concurrency ${opts.concurrency}; starting infrastructure…`,
    ...rest.map((line) => `compare: and ${line}`),
  ];
}

/**
 * Every planned suite on the lanes, by phase: the `alone` ones one after the other first, then the
 * `lead` ones with the `beside` ones at the same time, the latter told (`lanes.quiet`) when the
 * former are done. Each suite's run, by suite.
 */
export async function runSuites(
  planned: readonly Planned[],
  lanes: Omit<Lanes, 'quiet'>,
  observer: RunObserver,
): Promise<Map<Suite, SuiteRun<unknown, Row>>> {
  const done = new Map<Suite, SuiteRun<unknown, Row>>();
  const run = async ({ suite, plan }: Planned, quiet: Promise<void>) => {
    done.set(suite, await suite.run(plan, { ...lanes, quiet }, observer));
  };
  const inPhase = (phase: Suite['phase']) => planned.filter((p) => p.suite.phase === phase);
  const now = Promise.resolve();
  for (const p of inPhase('alone')) await run(p, now);
  let leadDone!: () => void;
  const quiet = new Promise<void>((resolve) => (leadDone = resolve));
  const beside = inPhase('beside').map((p) => run(p, quiet));
  await Promise.all(inPhase('lead').map((p) => run(p, now)));
  leadDone();
  await Promise.all(beside);
  return done;
}

/** Plans every selected suite from the options and the runtimes. */
export function planSuites(
  suites: readonly Suite[],
  opts: CompareOptions,
  infos: readonly RuntimeInfo[],
  expected: ExpectedTimes,
): Planned[] {
  return suites.map((suite) => ({ suite, plan: suite.plan(opts, infos, expected) }));
}

/** The progress display: a live footer on a terminal, else heartbeat lines through `log`; the ETA from the plans. */
function progressOf(io: CompareIo, eta: ReturnType<typeof etaOf>): Progress {
  return createProgress({
    write:
      io.progress?.write ??
      ((text) =>
        text
          .split('\n')
          .filter(Boolean)
          .forEach((l) => io.log(l))),
    tty: io.progress?.tty ?? false,
    total: eta.runs,
    totalExpectedMs: eta.totalMs,
    ...(io.progress?.columns ? { columns: io.progress.columns } : {}),
    ...(io.progress?.heartbeatMs ? { heartbeatMs: io.progress.heartbeatMs } : {}),
  });
}

/** results.json's content: the rows, and what they were measured on. */
async function resultsOf(
  rows: Row[],
  o: {
    opts: CompareOptions;
    env: NodeJS.ProcessEnv;
    infra: Infra;
    infos: readonly RuntimeInfo[];
    started: number;
    wallTimeMs: number;
  },
): Promise<Results> {
  const { opts, infra, infos } = o;
  return {
    schemaVersion: SCHEMA_VERSION,
    rows,
    meta: {
      versions: {
        runtimes: await runtimeVersions(infos.map((i) => i.name)),
        servers: serverVersions(infra),
        node: process.versions.node,
      },
      infrastructure: infra.describe(),
      environment: environmentReport(
        o.env,
        opts.modelUpstream,
        [...infra.servers.values()].map((s) => s.spec),
      ),
      wallTimeMs: o.wallTimeMs,
      startedAt: new Date(o.started).toISOString(),
      machine: { cpus: os.cpus().length, platform: `${os.platform()} ${os.arch()}` },
      options: { ...opts },
      runtimes: infos.map((i) => ({ name: i.name, label: i.label, title: i.title, colour: i.colour })),
      cells: rows.length,
      notRun: rows.filter((r) => r.status === 'error').length,
    },
  };
}

/**
 * The report: results.json (checked against the suites' contract first), results.md, report.html
 * and what the observer saw (profile.md), each suite's sections drawn by the shared renderers; and
 * the terminal's table.
 */
function writeResults(
  out: Results,
  o: {
    suites: readonly Suite[];
    observed: RunCompareResult['observed'];
    seen: ReportDocument | null;
    dir: string;
    cwd: string;
    io: CompareIo;
  },
): Omit<RunCompareResult, 'results' | 'observed' | 'exitCode'> {
  const { suites, seen } = o;
  const files = {
    json: path.join(o.dir, 'results.json'),
    md: path.join(o.dir, 'results.md'),
    html: path.join(o.dir, 'report.html'),
    ...(seen ? { profile: path.join(o.dir, 'profile.md') } : {}),
  };
  const contract = suites.map((s) => s.rowSchema);
  const reportError = writeReport(
    [
      // The contract first: a results.json that breaks its schema is never written there.
      { path: files.json, render: () => `${JSON.stringify(validateResults(out, contract), null, 2)}\n` },
      { path: files.md, render: () => toMarkdown(resultsDocument(out, { suites })) },
      { path: files.html, render: () => toHtml(resultsDocument(out, { suites, observations: o.observed })) },
      ...(seen && files.profile ? [{ path: files.profile, render: () => toMarkdown(seen) }] : []),
    ],
    { name: 'results.json', text: () => `${JSON.stringify(out, null, 2)}\n`, cwd: o.cwd },
  );
  const color = { color: o.io.color };
  return {
    table: toText(resultsDocument(out, { suites, width: o.io.width ?? TABLE_WIDTH }), color),
    profile: seen ? toText(seen, color) : null,
    files,
    reportError,
  };
}

/** The whole comparison, as a function (the end-to-end tests call this): the selected suites, planned, run, reported. */
export async function runCompare(opts: CompareOptions, io: CompareIo): Promise<RunCompareResult> {
  const env = io.env ?? process.env;
  const started = Date.now();
  // pnpm runs this from the package folder; a relative --report-dir means the caller's folder.
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const dir = path.resolve(cwd, opts.reportDir);
  const suites = io.suites ?? SUITES;
  const observer = opts.profile ? profiler() : NO_OBSERVER;
  const names = opts.runtimes ?? RUNTIME_NAMES;
  const infos = await runtimeInfos(names);
  const labels = new Map(infos.map((i) => [i.name, i.label]));
  const labelOf = (runtime: string) => labels.get(runtime) ?? runtime;
  const planned = planSuites(selectSuites(suites, opts.suites), opts, infos, expectedTimes(dir));
  for (const line of announce(planned, names, opts)) io.log(line);
  const infra =
    io.infra ??
    (await startInfra({
      runtimes: names,
      log: io.log,
      env,
      ...(io.command ? { command: io.command } : {}),
      ...(opts.modelUpstream ? { modelUpstream: opts.modelUpstream } : {}),
      ...infraNeeds(planned),
    }));
  const eta = etaOf(planned.map((p) => p.plan));
  const progress = progressOf(io, eta);
  try {
    const leading = etaOf(planned.filter((p) => p.suite.phase === 'lead').map((p) => p.plan)).runs;
    progress.log(`compare: infrastructure ready after ${seconds(Date.now() - started)}; running ${leading} cells`);
    const lanes: Omit<Lanes, 'quiet'> = {
      infra,
      request: cellRequest(infra.worldUrl),
      boundMs: opts.boundSeconds * 1000,
      concurrency: opts.concurrency,
      progress,
      labelOf,
      expectedMs: (measured) => measured ?? eta.typicalMs,
    };
    const runs = await runSuites(planned, lanes, observer);
    progress.stop();
    const rows = planned.flatMap((p) => runs.get(p.suite)!.rows);
    const results = await resultsOf(rows, { opts, env, infra, infos, started, wallTimeMs: Date.now() - started });
    const observed = Object.fromEntries(planned.map((p) => [p.suite.name, runs.get(p.suite)!.observations]));
    const seen = observer.report({ wallMs: results.meta.wallTimeMs, infra, runtimes: names, labelOf });
    const report = writeResults(results, { suites, observed, seen, dir, cwd, io });
    return { results, observed, ...report, exitCode: exitCodeFor(rows) };
  } finally {
    progress.stop();
    if (!io.infra && !opts.keepInfra) await infra.teardown();
    else if (!io.infra) {
      const d = infra.describe();
      io.log(
        `compare: --keep-infra: world ${infra.worldUrl} · ${[d.postgres, ...d.servers.map((s) => s.description)].join(' · ')} (stop with Ctrl-C)`,
      );
    }
  }
}
