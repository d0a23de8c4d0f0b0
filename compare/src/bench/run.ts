import os from 'node:os';
import { openContext } from './context.ts';
import { WORLD_LATENCY } from './context.ts';
import { machine, versions } from './machine.ts';
import type { Plan, SectionName } from './plan.ts';
import { byRuntime, type BenchReport } from './report.ts';
import { startBenchWorker, startReplayWorker } from './temporal-worker.ts';
import { sizedRequest } from './requests.ts';
import { measurePg, measureTemporalActivity } from './units.ts';

/**
 * The measurements in order, on one infrastructure: the units, per step, storage, throughput,
 * recovery; then, with everything of ours stopped, the harness (it brings up its own). A section
 * that fails is reported and the others still run.
 */
export async function runBench(o: {
  plan: Plan;
  runtimes: string[];
  log: (line: string) => void;
  startedAt: number;
}): Promise<{ report: BenchReport; failures: string[] }> {
  const { plan, log } = o;
  const wants = (s: SectionName) => plan.sections.includes(s);
  const sectionMs: BenchReport['meta']['sectionMs'] = {};
  const failures: string[] = [];
  const timed = async <T>(name: keyof typeof sectionMs, body: () => Promise<T>): Promise<T | null> => {
    const t = Date.now();
    log(`${name}: starting`);
    try {
      return await body();
    } catch (err) {
      const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
      failures.push(`${name}: ${message.split('\n').slice(0, 3).join(' ')}`);
      log(`${name}: FAILED: ${message.split('\n')[0]}`);
      return null;
    } finally {
      sectionMs[name] = Date.now() - t;
      log(`${name}: done in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    }
  };
  const m = machine();
  log(
    `preset ${plan.preset}: ${plan.sections.join(', ')} · ${m.cpus} × ${m.cpuModel} · load average ${m.loadAverage.start}`,
  );

  const t0 = Date.now();
  const { ctx, close } = await openContext({ plan, runtimes: o.runtimes, log });
  sectionMs.infrastructure = Date.now() - t0;
  let report: Omit<BenchReport, 'runtimes' | 'meta'> = {
    pgCommitUs: null,
    units: null,
    perStep: null,
    throughput: null,
    storage: null,
    recovery: null,
    harness: null,
  };
  const describe = ctx.infra.describe();
  const v = await versions(ctx.infra.databaseUrl, ctx.infra.temporal?.version ?? null, ctx.runtimes);
  try {
    const needsWorker = wants('per-step') || wants('storage');
    const worker = needsWorker ? await startBenchWorker(ctx) : null;
    try {
      const units = await timed('units', async () => {
        const pg = await measurePg(ctx.infra.databaseUrl, plan.units.commits);
        const temporal =
          worker && ctx.tm
            ? await measureTemporalActivity(
                ctx.tm.client,
                worker.taskQueue,
                plan.units.activityChains,
                plan.units.chainLength,
              )
            : { temporalActivityUs: null, temporalTaskDispatchUs: null };
        return { ...pg, ...temporal };
      });
      report = { ...report, units, pgCommitUs: units?.pgCommitUs ?? null };
      if (wants('per-step') && units) {
        const { measurePerStep } = await import('./per-step.ts');
        report.perStep = await timed('per-step', async () => {
          const replay = await startReplayWorker(ctx, sizedRequest(ctx.infra.worldUrl, plan.requirements));
          try {
            return await measurePerStep(ctx, units, worker, replay?.taskQueue ?? null);
          } finally {
            await replay?.stop();
          }
        });
      }
      if (wants('storage')) {
        const { measureStorage } = await import('./storage.ts');
        report.storage = await timed('storage', () => measureStorage(ctx, worker));
      }
    } finally {
      await worker?.stop();
    }
    if (wants('throughput')) {
      const { measureThroughput } = await import('./throughput.ts');
      report.throughput = await timed('throughput', () => measureThroughput(ctx));
    }
    if (wants('recovery')) {
      const { measureRecovery } = await import('./recovery.ts');
      report.recovery = await timed('recovery', () => measureRecovery(ctx));
    }
  } finally {
    await close();
  }
  if (wants('harness')) {
    const { measureHarness } = await import('./harness.ts');
    report.harness = await timed('harness', () => measureHarness(ctx));
  }
  const finished = Date.now();
  m.loadAverage.end = Math.round(os.loadavg()[0]! * 100) / 100;
  const full: BenchReport = {
    meta: {
      startedAt: new Date(o.startedAt).toISOString(),
      finishedAt: new Date(finished).toISOString(),
      wallTimeMs: finished - o.startedAt,
      preset: plan.preset,
      sections: plan.sections,
      sectionMs,
      machine: m,
      versions: v,
      infrastructure: {
        world: describe.world,
        postgres: describe.postgres,
        temporal: describe.temporal,
        built: describe.built,
      },
      world: WORLD_LATENCY,
    },
    ...report,
    runtimes: {},
  };
  full.runtimes = byRuntime(full);
  return { report: full, failures };
}
