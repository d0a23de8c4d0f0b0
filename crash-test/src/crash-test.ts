import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '@vendor-review/worker-io';
import { machine } from '@vendor-review/compare/bench/machine';
import { createProgress } from '@vendor-review/compare/progress';
import { writeReport } from '@vendor-review/compare/report-files';
import type { WorkerEvent } from './events.ts';
import { findingOf } from './findings.ts';
import { langGraphDriver } from './drivers/langgraph.ts';
import { temporalDriver } from './drivers/temporal.ts';
import type { CellRun, Driver, DriverContext } from './drivers/types.ts';
import { importUserModule, langGraphShape, SHAPES, workflowTypes, type LangGraphApp } from './load-app.ts';
import type { CrashTestOptions } from './options.ts';
import { deriveCells, narrow } from './plan.ts';
import { callsOf } from './record.ts';
import { MissingSdkError } from './resolve-sdk.ts';
import { renderHtml, renderText } from './report.ts';
import {
  gitCommit,
  resultsJsonSchema,
  ResultsSchema,
  UNSEEN,
  type CrashTestResults,
  type FindingRow,
} from './results.ts';

/** The app's shape, checked before anything starts: a module that is none of them is a usage mistake. */
async function driverFor(o: CrashTestOptions, ctx: DriverContext): Promise<Driver> {
  const temporal = o.runtime === 'temporal' || o.activities !== undefined;
  if (temporal) {
    if (!o.activities) throw new UsageError('a Temporal app needs --activities <module> (its activities)');
    const types = workflowTypes(await importUserModule(o.module, 'workflows module'));
    if (types.length === 0)
      throw new UsageError(`${o.module} exports no workflow function (${SHAPES})`, { seeHelp: false });
    const workflowType = o.workflow ?? (types.length === 1 ? types[0]! : null);
    if (!workflowType)
      throw new UsageError(`${o.module} exports several workflows (${types.join(', ')}): name one with --workflow`);
    if (!types.includes(workflowType)) {
      throw new UsageError(
        `workflow type "${workflowType}" does not exist in ${o.module} (it exports: ${types.join(', ')})`,
        { seeHelp: false },
      );
    }
    const input = o.input === undefined ? [] : Array.isArray(o.input) ? o.input : [o.input];
    return temporalDriver(
      {
        app: { runtime: 'temporal', workflowsPath: o.module, activitiesPath: o.activities, workflowType },
        args: input,
        signals: o.signals,
      },
      ctx,
    );
  }
  const mod = await importUserModule(o.module);
  const shape: LangGraphApp | null = langGraphShape(mod);
  if (!shape) throw new UsageError(`${o.module} is not an app this tool knows: ${SHAPES}`, { seeHelp: false });
  const input = o.input ?? shape.input;
  if (input === undefined) throw new UsageError(`${o.module} exports no \`input\`: give one with --input <json>`);
  return langGraphDriver(
    {
      module: o.module,
      app: o.runtime === 'functional' ? { ...shape, runtime: 'functional' } : shape,
      input,
      ...(o.resume ? { resume: o.resume.value } : {}),
      ...(o.durability ? { durability: o.durability } : {}),
    },
    ctx,
  );
}

function timelineOf(run: CellRun): FindingRow['timeline'] {
  const rel = (t: number) => Math.max(0, t - run.startedAt);
  const of = (worker: 'A' | 'B', events: readonly WorkerEvent[]) =>
    events.flatMap((e): FindingRow['timeline'] => {
      if (e.e === 'sent')
        return [{ worker, t: rel(e.t), what: `${e.method} ${e.host}${e.path} #${e.occurrence}`, kind: 'call' }];
      if (e.e === 'step') return [{ worker, t: rel(e.t), what: `step ${e.name}`, kind: 'step' }];
      if (e.e === 'crash') return [{ worker, t: rel(e.t), what: `dies: ${e.what}`, kind: 'crash' }];
      if (e.e === 'done') return [{ worker, t: rel(e.t), what: `ends: ${e.status}`, kind: 'done' }];
      return [];
    });
  return [...of('A', run.a), ...of('B', run.b)];
}

/** Cells side by side, `concurrency` at a time, in plan order. */
async function pool<T, R>(items: readonly T[], concurrency: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

export async function crashTest(o: CrashTestOptions, log: (line: string) => void): Promise<CrashTestResults> {
  const startedAt = new Date();
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'crash-test-'));
  const ctx: DriverContext = {
    workDir,
    cwd: o.cwd,
    recordingPath: path.join(workDir, 'recording.json'),
    stop: o.stop,
    boundMs: o.boundSeconds * 1000,
  };
  let driver: Driver;
  try {
    driver = await driverFor(o, ctx);
  } catch (err) {
    if (err instanceof MissingSdkError) throw new UsageError(err.message, { seeHelp: false });
    throw err;
  }
  let kept = true;
  try {
    log(`crash-test: ${driver.runtime}, baseline run (outbound calls recorded; worker output in ${workDir})`);
    const baseline = await driver.run({ id: 'baseline', crash: null, mode: 'record' });
    const baselineCalls = callsOf(baseline.a);
    const failed = baselineCalls.find((c) => c.failed);
    if (failed)
      throw new UsageError(`the baseline could not reach ${failed.key}: ${failed.failed} (is it up?)`, {
        seeHelp: false,
      });
    if (!baseline.final) {
      throw new UsageError(
        `the baseline run did not end: ${baseline.stuck ?? 'no result'} (see ${workDir}/baseline.a.log)`,
        { seeHelp: false },
      );
    }
    await writeFile(ctx.recordingPath, JSON.stringify(baselineCalls));
    const cells = narrow(deriveCells(baseline.a), {
      ...(o.calls ? { calls: o.calls } : {}),
      ...(o.steps ? { steps: o.steps } : {}),
      ...(o.maxCells ? { maxCells: o.maxCells } : {}),
    });
    const mode = o.live ? 'live' : 'replay';
    const progress = createProgress({
      write: (text) => process.stderr.write(text),
      tty: process.stderr.isTTY ?? false,
      total: cells.length,
    });
    const findings = await pool(cells, o.concurrency, async (cell) => {
      progress.started(cell.id, cell.label);
      const run = await driver.run({ id: cell.id, crash: cell.crash, mode });
      progress.finished(cell.id);
      const f = findingOf(driver.runtime, run, cell, baseline.a, baseline.final!.state, o.prices);
      progress.log(
        `${cell.label}: ${f.again.length ? `${f.again.map((r) => r.call).join(', ')} again` : 'nothing again'}${f.stuck ? ' (did not end)' : ''}`,
      );
      return { ...f, timeline: timelineOf(run), profile: run.profile };
    });
    progress.stop();
    kept = false;
    return ResultsSchema.parse({
      tool: 'crash-test',
      module: path.relative(o.cwd, o.module) || o.module,
      runtime: driver.runtime,
      meta: {
        startedAt: startedAt.toISOString(),
        node: process.versions.node,
        sdk: driver.versions,
        machine: machine(),
        commit: {
          tool: gitCommit(path.dirname(fileURLToPath(import.meta.url))),
          app: gitCommit(path.dirname(o.module)),
        },
        infra: driver.infra,
        notes: [
          ...driver.notes,
          `calls in the crash cells: ${mode === 'live' ? 'sent to the real endpoints (--live)' : "answered from the baseline's recording"}`,
        ],
        unseen: UNSEEN,
        stop: o.stop,
      },
      baseline: {
        calls: baselineCalls.map((c) => ({
          call: c.key,
          occurrence: c.occurrence,
          status: c.response?.status ?? null,
          idempotencyKey: c.idempotencyKey,
          bodyHash: c.bodyHash,
          headers: c.headers,
          inputTokens: c.usage?.inputTokens ?? null,
          outputTokens: c.usage?.outputTokens ?? null,
        })),
        steps: baseline.a.flatMap((e) => (e.e === 'step' ? [e.name] : [])),
        final: baseline.final.state,
        ms: (baseline.endedAt ?? Date.now()) - baseline.startedAt,
      },
      findings,
    });
  } finally {
    await driver.close();
    // The recording holds whole answers (what an endpoint returned may be a secret): kept only to debug a failure.
    if (!kept) await rm(workDir, { recursive: true, force: true });
  }
}

/** results.json (with its schema beside it) and report.html; null when written, else the line to print. */
export function writeCrashTestReport(
  r: CrashTestResults,
  o: Pick<CrashTestOptions, 'reportDir' | 'profile' | 'cwd'>,
): string | null {
  const text = () => `${JSON.stringify(r, null, 2)}\n`;
  return writeReport(
    [
      { path: path.join(o.reportDir, 'results.json'), render: text },
      { path: path.join(o.reportDir, 'results.schema.json'), render: resultsJsonSchema },
      { path: path.join(o.reportDir, 'report.html'), render: () => renderHtml(r, { profile: o.profile }) },
    ],
    { name: 'results.json', text, cwd: o.cwd },
  );
}

export { renderText };
