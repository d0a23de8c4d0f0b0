/**
 * The comparison as a function: bring up the infrastructure, run the matrix, judge it, write the
 * report. `compare.ts` is the command around it; the end-to-end test calls it directly.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { vendorRequest } from '@vendor-review/domain/world';
import { errorObservation, runCell } from './cell.ts';
import type { CompareOptions } from './cli.ts';
import { computeEvidence } from './evidence.ts';
import { startInfra, type Infra } from './infra.ts';
import { jobsFor, runMatrix } from './matrix.ts';
import type { CellObservation } from './observation.ts';
import { renderHtml } from './report/html.ts';
import { renderMarkdown } from './report/markdown.ts';
import { buildRows, exitCodeFor, type Results } from './report/results.ts';
import type { RuntimeAdapter } from './runtimes/adapter.ts';
import { selectScenarios, type RuntimeName } from './scenarios.ts';
import { renderTable, repeatedSummary, rowLabel, seconds } from './table.ts';
import { runtimeVersions } from './versions.ts';

/** The vendor every cell reviews, and how many of the catalogue's requirements: enough to loop, few enough to be quick. */
export const VENDOR = 'acme-analytics';
export const REQUIREMENTS = 3;

export function reviewRequest(worldUrl: string) {
  const request = vendorRequest(VENDOR, worldUrl);
  return { ...request, requirements: request.requirements.slice(0, REQUIREMENTS) };
}

export interface RunCompareResult {
  results: Results;
  observations: CellObservation[];
  table: string;
  files: { json: string; md: string; html: string };
  exitCode: 0 | 1;
  infra: Infra | null;
}

export async function makeAdapters(
  infra: Infra,
  runtimes: Set<RuntimeName>,
): Promise<Map<RuntimeName, RuntimeAdapter>> {
  const adapters = new Map<RuntimeName, RuntimeAdapter>();
  if (runtimes.has('langgraph')) {
    const { createLangGraphAdapter } = await import('./runtimes/langgraph.ts');
    adapters.set(
      'langgraph',
      createLangGraphAdapter({
        databaseUrl: infra.databaseUrl,
        worldUrl: infra.worldUrl,
        ...(infra.workers.langgraph ? { workerEntry: infra.workers.langgraph.path } : {}),
      }),
    );
  }
  if (runtimes.has('temporal') && infra.temporal && infra.bundle) {
    const { createTemporalAdapter } = await import('./runtimes/temporal.ts');
    adapters.set(
      'temporal',
      await createTemporalAdapter({
        address: infra.temporal.address,
        namespace: infra.temporal.namespace,
        databaseUrl: infra.databaseUrl,
        worldUrl: infra.worldUrl,
        bundlePath: infra.bundle.path,
        ...(infra.workers.temporal ? { workerEntry: infra.workers.temporal.path } : {}),
        uiUrl: infra.temporal.uiUrl,
      }),
    );
  }
  return adapters;
}

function progressLine(obs: CellObservation, done: number, total: number, all: CellObservation[]): string {
  const baseline = all.find((o) => o.scenario.id === obs.scenario.baselineId && o.status === 'completed') ?? null;
  const e = computeEvidence(obs, obs.scenario.crashPoint === null ? obs : baseline);
  const mark = obs.status === 'completed' ? '✓' : obs.status === 'error' ? '✗' : '!';
  const rep = obs.repetition > 0 ? ` #${obs.repetition + 1}` : '';
  const label = `${rowLabel({ runtime: obs.scenario.runtime, variant: obs.scenario.crashPoint === null ? 'baseline' : obs.scenario.variant, durability: obs.durability, baselineOf: obs.scenario.variant })} ${obs.scenario.crashPoint ?? ''}${rep}`;
  const facts =
    obs.scenario.crashPoint === null
      ? `${obs.ledger.length} ops`
      : `repeated ${repeatedSummary({ repeated: e.repeated })} · recovery ${seconds(e.recoveryMs)}`;
  return `[${String(done).padStart(String(total).length)}/${total}] ${mark} ${label.padEnd(38)} ${obs.status.padEnd(9)} ${seconds(obs.endedAt - obs.startedAt).padStart(7)} · ${facts}${obs.note && obs.status !== 'completed' ? ` · ${obs.note.slice(0, 160)}` : ''}`;
}

/** The whole comparison, as a function (the end-to-end test calls this). */
export async function runCompare(
  opts: CompareOptions,
  io: { log: (line: string) => void; color: boolean; infra?: Infra },
): Promise<RunCompareResult> {
  const started = Date.now();
  const scenarios = selectScenarios({
    runtimes: opts.runtimes,
    variants: opts.variants,
    crashPoints: opts.crashPoints,
    durabilities: opts.durabilities,
  });
  const runtimes = new Set(scenarios.map((s) => s.runtime));
  io.log(
    `compare: ${scenarios.length} cells × ${opts.repeat} (${[...runtimes].join(', ')}), concurrency ${opts.concurrency}; starting infrastructure…`,
  );
  const infra =
    io.infra ??
    (await startInfra({
      needTemporal: runtimes.has('temporal'),
      needLangGraph: runtimes.has('langgraph'),
      log: io.log,
    }));
  const adapters = await makeAdapters(infra, runtimes);
  try {
    const request = reviewRequest(infra.worldUrl);
    const observations: CellObservation[] = [];
    const jobs = jobsFor(scenarios, opts.repeat);
    io.log(`compare: infrastructure ready after ${seconds(Date.now() - started)}; running ${jobs.length} cells`);
    const results = await runMatrix(jobs, {
      concurrency: opts.concurrency,
      run: async ({ scenario, repetition }) => {
        const adapter = adapters.get(scenario.runtime);
        if (!adapter) return errorObservation(scenario, repetition, `no ${scenario.runtime} runtime available`);
        try {
          return await runCell(scenario, repetition, {
            adapter,
            worldUrl: infra.worldUrl,
            request,
            boundMs: opts.boundSeconds * 1000,
          });
        } catch (err) {
          return errorObservation(
            scenario,
            repetition,
            `the cell could not run: ${err instanceof Error ? err.message : String(err)}`,
          );
        }
      },
      onDone: (obs, done, total) => {
        observations.push(obs);
        io.log(progressLine(obs, done, total, observations));
      },
    });
    const wallTimeMs = Date.now() - started;
    const rows = buildRows(
      results.sort(
        (a, b) => scenarios.indexOf(a.scenario) - scenarios.indexOf(b.scenario) || a.repetition - b.repetition,
      ),
    );
    const v = runtimeVersions();
    const out: Results = {
      rows,
      meta: {
        versions: { ...v, temporalServer: infra.temporal?.version ?? null, node: process.versions.node },
        infrastructure: infra.describe(),
        wallTimeMs,
        startedAt: new Date(started).toISOString(),
        machine: { cpus: os.cpus().length, platform: `${os.platform()} ${os.arch()}` },
        options: { ...opts },
        cells: rows.length,
        notRun: rows.filter((r) => r.status === 'error').length,
      },
    };
    // pnpm runs this from the package folder; a relative --report-dir means the caller's folder.
    const dir = path.resolve(process.env.INIT_CWD ?? process.cwd(), opts.reportDir);
    mkdirSync(dir, { recursive: true });
    const files = {
      json: path.join(dir, 'results.json'),
      md: path.join(dir, 'results.md'),
      html: path.join(dir, 'report.html'),
    };
    writeFileSync(files.json, `${JSON.stringify(out, null, 2)}\n`);
    writeFileSync(files.md, renderMarkdown(out));
    writeFileSync(files.html, renderHtml(out, results));
    const table = renderTable({ rows, wallTimeMs, color: io.color });
    return { results: out, observations: results, table, files, exitCode: exitCodeFor(rows), infra };
  } finally {
    await Promise.all([...adapters.values()].map((a) => a.close().catch(() => undefined)));
    if (!io.infra && !opts.keepInfra) await infra.teardown();
    else if (!io.infra)
      io.log(
        `compare: --keep-infra: world ${infra.worldUrl} · ${infra.describe().postgres} · ${infra.describe().temporal} (stop with Ctrl-C)`,
      );
  }
}
