/**
 * The comparison as a function: bring up the infrastructure, run the matrix, judge it, write the
 * report. `compare.ts` is the command around it; the end-to-end test calls it directly.
 */
import os from 'node:os';
import path from 'node:path';
import {
  dependsOnTiming,
  distributionRepeats,
  VARYING_REPEATS,
  inLanes,
  cellRequest,
  computeEvidence,
  crashCatalogue,
  hazardHarm,
  jobsFor,
  productionCatalogue,
  runHazard,
  RESTARTS_A_SERVER,
  runMatrix,
  selectScenarios,
  windowSeries,
  type CellObservation,
  type HazardObservation,
  type HazardScenario,
} from '@vendor-review/conformance';
import { recordStartedWorkers } from '@vendor-review/testbed';
import { WINDOW_RUNS, type CompareOptions } from './cli.ts';
import { environmentReport } from './environment.ts';
import { granularityScenarios, runGranularitySuite } from './granularity-suite.ts';
import { runWindowSuite } from './window-suite.ts';
import { runCellOn, serverVersions, startInfra, type Infra } from './infra.ts';
import { expectedTimes } from './expected-times.ts';
import { exitedChildrenCpuMs, machineCpu, otherProcessesCpu, processCpu, profileDocument } from './profile.ts';
import { toText } from './report/render-text.ts';
import { machineRoom } from './machine-room.ts';
import { createProgress, type Progress } from './progress.ts';
import { writeReport } from './report-files.ts';
import { SCHEMA_VERSION, validateResults } from './report/results-schema.ts';
import { toHtml } from './report/render-html.ts';
import { toMarkdown } from './report/render-markdown.ts';
import { resultsDocument } from './report/results-document.ts';
import { buildGranularityRows } from './report/granularity-rows.ts';
import { buildWindowRows } from './report/window-rows.ts';
import { buildProductionRows, buildRows, exitCodeFor, type Results } from './report/results.ts';
import { RUNTIME_NAMES, runtimeInfos, runtimeVersions } from './runtimes.ts';
import { repeatedSummary, rowLabel, seconds, TABLE_WIDTH } from './table.ts';

export interface RunCompareResult {
  results: Results;
  observations: CellObservation[];
  hazards: HazardObservation[];
  /** The granularity suite's cells (uncrashed, early, late per runtime and granularity). */
  granularity: CellObservation[];
  /** The window suite's cells (every delay tried, every run). */
  window: CellObservation[];
  table: string;
  /** Where the time went (`--profile`), or null. */
  profile: string | null;
  files: { json: string; md: string; html: string; profile?: string };
  /** Why the report is not (all) in `files`, and where the results were saved instead; null when it is. */
  reportError: string | null;
  exitCode: 0 | 1;
}

function progressLine(
  obs: CellObservation,
  done: number,
  total: number,
  all: CellObservation[],
  labelOf: (runtime: string) => string,
): string {
  const baseline = all.find((o) => o.scenario.id === obs.scenario.baselineId && o.status === 'completed') ?? null;
  const e = computeEvidence(obs, obs.scenario.crashPoint === null ? obs : baseline);
  const mark = obs.status === 'completed' ? '✓' : obs.status === 'error' ? '✗' : '!';
  const rep = obs.repetition > 0 ? ` #${obs.repetition + 1}` : '';
  const label = `${rowLabel({
    runtimeLabel: labelOf(obs.scenario.runtime),
    variant: obs.scenario.crashPoint === null ? 'baseline' : obs.scenario.variant,
    durability: obs.durability,
    baselineOf: obs.scenario.variant,
  })} ${obs.scenario.crashPoint ?? ''}${rep}`;
  const facts =
    obs.scenario.crashPoint === null
      ? `${obs.ledger.length} ops`
      : `repeated ${repeatedSummary({ repeated: e.repeated })} · recovery ${seconds(e.recoveryMs)}`;
  const note = obs.note && obs.status !== 'completed' ? ` · ${obs.note.slice(0, 160)}` : '';
  return `[${String(done).padStart(String(total).length)}/${total}] ${mark} ${label.padEnd(38)} ${obs.status.padEnd(9)} ${seconds(obs.endedAt - obs.startedAt).padStart(7)} · ${facts}${note}`;
}

/**
 * The production hazards, each through its runtime's adapter, beside the cells; one progress line
 * per run of a row (a row whose verdict depends on timing runs several times under --full). Those
 * that restart a server run on servers of their own (infra.restarting), one at a time.
 */
async function runHazards(
  jobs: { scenario: HazardScenario; repetition: number }[],
  infra: Infra,
  request: ReturnType<typeof cellRequest>,
  opts: CompareOptions,
  progress: Progress,
  labelOf: (runtime: string) => string,
  quiet: Promise<unknown>,
  expectedMs: (h: HazardScenario) => number,
): Promise<HazardObservation[]> {
  const log = (line: string) => progress.log(line);
  let done = 0;
  const runOne = async ({ scenario: h, repetition }: (typeof jobs)[number]): Promise<HazardObservation> => {
    const rep = repetition > 0 ? ` #${repetition + 1}` : '';
    const id = `hazard ${h.id}#${repetition}`;
    progress.started(id, `${labelOf(h.runtime)} ${h.variant} ${h.hazard}${rep}`, expectedMs(h));
    const restarts = RESTARTS_A_SERVER.has(h.hazard) ? infra.restarting : null;
    const adapter = (restarts ?? infra).runtimes.get(h.runtime)?.adapter;
    const o: HazardObservation = adapter
      ? await runHazard(
          h,
          {
            adapter,
            worldUrl: infra.worldUrl,
            request,
            boundMs: opts.boundSeconds * 1000,
            infra: (restarts ?? infra).hazardInfra,
          },
          repetition,
        )
      : {
          scenario: h,
          repetition,
          status: 'error',
          verdict: null,
          figures: {},
          runId: null,
          note: `no ${h.runtime} runtime available`,
          startedAt: Date.now(),
          endedAt: Date.now(),
          ledger: [],
          durable: null,
          harm: hazardHarm([]),
        };
    progress.finished(id);
    log(
      `[hazard ${++done}/${jobs.length}] ${labelOf(h.runtime)} ${h.variant} ${h.hazard}${rep}: ${o.verdict ?? o.status}${o.note ? ` · ${o.note.slice(0, 120)}` : ''}`,
    );
    return o;
  };
  // Beside the cells, half as many lanes as cells at once (at least two); once the cells are done,
  // twice as many as the cells had; and more, up to three times, while the CPUs sit idle: most of a
  // hazard's time is spent waiting on timers, leases and frozen workers.
  let cellsDone = false;
  void quiet.then(() => (cellsDone = true));
  return inLanes(
    jobs,
    {
      concurrency: () => (cellsDone ? 2 * opts.concurrency : Math.max(2, Math.floor(opts.concurrency / 2))),
      widen: quiet,
      room: machineRoom(0.15),
      recheckMs: 500,
      most: 3 * opts.concurrency,
      expectedMs: (j) => expectedMs(j.scenario),
      // The restart hazards share the servers they restart.
      exclusive: (j) => (RESTARTS_A_SERVER.has(j.scenario.hazard) ? 'restarts' : null),
    },
    runOne,
  );
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
}

/** The whole comparison, as a function (the end-to-end test calls this). */
export async function runCompare(opts: CompareOptions, io: CompareIo): Promise<RunCompareResult> {
  const env = io.env ?? process.env;
  const started = Date.now();
  // pnpm runs this from the package folder; a relative --report-dir means the caller's folder.
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const dir = path.resolve(cwd, opts.reportDir);
  const expected = expectedTimes(dir);
  const profiling = opts.profile
    ? {
        workers: recordStartedWorkers(),
        cpu: process.cpuUsage(),
        machine: machineCpu(),
        processes: processCpu(),
      }
    : null;
  const names = opts.runtimes ?? RUNTIME_NAMES;
  const infos = await runtimeInfos(names);
  const labels = new Map(infos.map((i) => [i.name, i.label]));
  const labelOf = (runtime: string) => labels.get(runtime) ?? runtime;
  const scenarios = opts.suites.includes('crash')
    ? selectScenarios(
        {
          variants: opts.variants,
          crashPoints: opts.crashPoints,
          durabilities: opts.durabilities,
          // Without --full or --durability: each variant in the configuration its baseline runs in.
          baselineConfigurations: !opts.full && !opts.durabilities,
        },
        crashCatalogue(infos, { stops: opts.stops ?? ['kill'] }),
      )
    : [];
  const hazards = opts.suites.includes('production')
    ? productionCatalogue(infos, opts.hazards).filter((h) => !opts.variants || opts.variants.includes(h.variant))
    : [];
  const granular = opts.suites.includes('granularity')
    ? granularityScenarios(infos, { variants: opts.variants, granularities: opts.granularities })
    : [];
  const windowed = opts.suites.includes('window')
    ? windowSeries(infos, { variants: opts.variants, durabilities: opts.durabilities, steps: opts.windowSteps })
    : [];
  const windowRuns = opts.repeat ?? WINDOW_RUNS;
  const granularRuns =
    granular.filter((s) => s.crash === null).length * (opts.repeat ?? 1) + granular.filter((s) => s.crash).length;
  // --full runs the cells and hazard rows whose outcome depends on timing several times, to show their distribution.
  const repeats = opts.repeat ?? (opts.full ? distributionRepeats : 1);
  const jobs = jobsFor(scenarios, repeats);
  const hazardJobs = jobsFor(hazards, repeats);
  const repeatedText = (varying: number) =>
    opts.repeat
      ? ` × ${opts.repeat}`
      : varying
        ? `, ${varying} of them whose outcome depends on timing × ${VARYING_REPEATS}`
        : '';
  const varying = (rows: Parameters<typeof dependsOnTiming>[0][]) =>
    opts.full && !opts.repeat ? rows.filter(dependsOnTiming).length : 0;
  io.log(
    `compare: ${jobs.length} crash cell runs (${scenarios.length} cells${repeatedText(varying(scenarios))}) and ${hazardJobs.length} production hazard runs (${hazards.length} rows${repeatedText(varying(hazards))}) (${names.join(', ')}), concurrency ${opts.concurrency}; starting infrastructure…`,
  );
  if (granular.length)
    io.log(
      `compare: and ${granularRuns} granularity cell runs (${granular.length} cells), the uncrashed ones first, alone`,
    );
  if (windowed.length)
    io.log(
      `compare: and the commit window: ${windowed.length} series (runtime configuration × step), ${windowRuns} runs per delay, the delays chosen as the runs come in`,
    );
  const ownInfra = !io.infra;
  const infra =
    io.infra ??
    (await startInfra({
      runtimes: names,
      log: io.log,
      env,
      ...(io.command ? { command: io.command } : {}),
      ...(opts.modelUpstream ? { modelUpstream: opts.modelUpstream } : {}),
      ...(hazards.some((h) => RESTARTS_A_SERVER.has(h.hazard))
        ? { restartServers: hazards.some((h) => h.hazard === 'restart-server') ? 'every' : 'postgres' }
        : {}),
    }));
  // Each item's expected length for the ETA; one no run has measured counts as the typical one.
  const known = [
    ...jobs.map((j) => expected.cell(j.scenario.id)),
    ...hazardJobs.map((j) => expected.hazard(j.scenario.id, j.scenario.hazard)),
  ].filter((ms): ms is number => ms !== null);
  const typical = known.length ? known.reduce((a, b) => a + b, 0) / known.length : 3_000;
  const expectedOf = {
    cell: (s: { id: string }) => expected.cell(s.id) ?? typical,
    hazard: (h: HazardScenario) => expected.hazard(h.id, h.hazard) ?? typical,
    unknown: typical,
  };
  const progress = createProgress({
    write:
      io.progress?.write ??
      ((text) =>
        text
          .split('\n')
          .filter(Boolean)
          .forEach((l) => io.log(l))),
    tty: io.progress?.tty ?? false,
    total: jobs.length + hazardJobs.length + granularRuns,
    totalExpectedMs:
      jobs.reduce((sum, j) => sum + expectedOf.cell(j.scenario), 0) +
      hazardJobs.reduce((sum, j) => sum + expectedOf.hazard(j.scenario), 0) +
      granularRuns * expectedOf.unknown,
    ...(io.progress?.columns ? { columns: io.progress.columns } : {}),
    ...(io.progress?.heartbeatMs ? { heartbeatMs: io.progress.heartbeatMs } : {}),
  });
  try {
    const request = cellRequest(infra.worldUrl);
    const observations: CellObservation[] = [];
    progress.log(`compare: infrastructure ready after ${seconds(Date.now() - started)}; running ${jobs.length} cells`);
    // Before anything else starts: the uncrashed granularity runs are timed, and want the machine to themselves.
    const granularity = granular.length
      ? await runGranularitySuite({
          scenarios: granular,
          infra,
          request,
          repeat: opts.repeat ?? 1,
          concurrency: opts.concurrency,
          boundMs: opts.boundSeconds * 1000,
          progress,
          labelOf,
        })
      : [];
    // Before the crash and hazard rows, not beside them: a machine kept busy by others lengthens the window.
    const window = windowed.length
      ? await runWindowSuite({
          infos,
          series: windowed,
          infra,
          request,
          runs: windowRuns,
          ...(opts.windowDelays ? { delays: opts.windowDelays } : {}),
          concurrency: opts.concurrency,
          boundMs: opts.boundSeconds * 1000,
          progress,
          labelOf,
          expectedMs: expectedOf.unknown,
        })
      : [];
    // The hazards mostly wait (a retry's backoff, a run watched while it retries): they run beside the cells.
    let cellsDone!: () => void;
    const quiet = new Promise<void>((resolve) => (cellsDone = resolve));
    const hazardRows = runHazards(hazardJobs, infra, request, opts, progress, labelOf, quiet, expectedOf.hazard);
    const jobLabel = (s: (typeof scenarios)[number], repetition: number) =>
      `${rowLabel({
        runtimeLabel: labelOf(s.runtime),
        variant: s.crashPoint === null ? 'baseline' : s.variant,
        durability: s.durability,
        baselineOf: s.variant,
      })} ${s.crashPoint ?? 'baseline'}${repetition > 0 ? ` #${repetition + 1}` : ''}`;
    const results = await runMatrix(jobs, {
      concurrency: opts.concurrency,
      expectedMs: (j) => expected.cell(j.scenario.id),
      run: async ({ scenario, repetition }) => {
        progress.started(`${scenario.id}#${repetition}`, jobLabel(scenario, repetition), expectedOf.cell(scenario));
        return runCellOn(infra, scenario, repetition, { request, boundMs: opts.boundSeconds * 1000 });
      },
      onDone: (obs, done, total) => {
        observations.push(obs);
        progress.finished(`${obs.scenario.id}#${obs.repetition}`);
        progress.log(progressLine(obs, done, total, observations, labelOf));
      },
    });
    cellsDone();
    const hazardObservations = await hazardRows;
    progress.stop();
    const wallTimeMs = Date.now() - started;
    const order = (o: CellObservation) => scenarios.findIndex((s) => s.id === o.scenario.id);
    const rows = [
      ...buildRows(
        results.sort((a, b) => order(a) - order(b) || a.repetition - b.repetition),
        labelOf,
      ),
      ...buildProductionRows(hazardObservations, labelOf),
      ...buildGranularityRows(granularity, labelOf),
      ...buildWindowRows(window, labelOf),
    ];
    const out: Results = {
      schemaVersion: SCHEMA_VERSION,
      rows,
      meta: {
        versions: {
          runtimes: await runtimeVersions(names),
          servers: serverVersions(infra),
          node: process.versions.node,
        },
        infrastructure: infra.describe(),
        environment: environmentReport(
          env,
          opts.modelUpstream,
          [...infra.servers.values()].map((s) => s.spec),
        ),
        wallTimeMs,
        startedAt: new Date(started).toISOString(),
        machine: { cpus: os.cpus().length, platform: `${os.platform()} ${os.arch()}` },
        options: { ...opts },
        runtimes: infos.map((i) => ({ name: i.name, label: i.label, title: i.title, colour: i.colour })),
        cells: rows.length,
        notRun: rows.filter((r) => r.status === 'error').length,
      },
    };
    const machineNow = profiling && machineCpu();
    const processesNow = profiling ? processCpu() : new Map();
    const profileDoc = profiling
      ? profileDocument({
          wallMs: wallTimeMs,
          exitedChildrenCpuMs: exitedChildrenCpuMs(profiling.processes, processesNow, process.pid),
          harnessCpuMs: (() => {
            const d = process.cpuUsage(profiling.cpu);
            return (d.user + d.system) / 1000;
          })(),
          machine:
            profiling.machine && machineNow
              ? {
                  busyMs: machineNow.busyMs - profiling.machine.busyMs,
                  idleMs: machineNow.idleMs - profiling.machine.idleMs,
                }
              : null,
          cells: [...results, ...granularity, ...window],
          hazards: hazardObservations,
          serverStarts: [...infra.servers.values()].flatMap(({ spec, server }) =>
            server.owned && server.startMs !== undefined ? [{ label: spec.label, ms: server.startMs }] : [],
          ),
          others: otherProcessesCpu(
            profiling.processes,
            processesNow,
            process.pid,
            new Set(profiling.workers().flatMap((w) => (w.life.pid ? [w.life.pid] : []))),
          ),
          workers: profiling.workers(),
          labelOf,
        })
      : null;
    const files = {
      json: path.join(dir, 'results.json'),
      md: path.join(dir, 'results.md'),
      html: path.join(dir, 'report.html'),
      ...(profileDoc ? { profile: path.join(dir, 'profile.md') } : {}),
    };
    const reportError = writeReport(
      [
        // The contract first: a results.json that breaks its schema is never written there.
        { path: files.json, render: () => `${JSON.stringify(validateResults(out), null, 2)}\n` },
        { path: files.md, render: () => toMarkdown(resultsDocument(out)) },
        {
          path: files.html,
          render: () => toHtml(resultsDocument(out, { observations: results, hazards: hazardObservations })),
        },
        ...(profileDoc && files.profile ? [{ path: files.profile, render: () => toMarkdown(profileDoc) }] : []),
      ],
      { name: 'results.json', text: () => `${JSON.stringify(out, null, 2)}\n`, cwd },
    );
    const table = toText(resultsDocument(out, { width: io.width ?? TABLE_WIDTH }), { color: io.color });
    return {
      results: out,
      observations: results,
      hazards: hazardObservations,
      granularity,
      window,
      table,
      profile: profileDoc ? toText(profileDoc, { color: io.color }) : null,
      files,
      reportError,
      exitCode: exitCodeFor(rows),
    };
  } finally {
    progress.stop();
    if (ownInfra && !opts.keepInfra) await infra.teardown();
    else if (ownInfra) {
      const d = infra.describe();
      io.log(
        `compare: --keep-infra: world ${infra.worldUrl} · ${[d.postgres, ...d.servers.map((s) => s.description)].join(' · ')} (stop with Ctrl-C)`,
      );
    }
  }
}
