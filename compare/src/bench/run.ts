import os from 'node:os';
import type { InProcessBench } from '@vendor-review/conformance';
import { runtime as floor } from '../plain-harness/module.ts';
import { openContext, WORLD_LATENCY } from './context.ts';
import { serverVersions } from '../infra.ts';
import { machine, versions } from './machine.ts';
import type { Plan, SectionName } from './plan.ts';
import type { Benched } from './benched.ts';
import { byRuntime, type BenchReport, type BenchedFacts } from './report.ts';
import { measureOwnUnits, measurePg } from './units.ts';

/** What the renderers say of each runtime: its module's title and colour, its bench's unit and knobs. */
function facts(benched: readonly Benched[]): Record<string, BenchedFacts> {
  const commit = { key: null, one: 'one commit', plural: 'commits' };
  const entry = (b: Pick<Benched, 'info'> & { bench?: Benched['bench'] }): [string, BenchedFacts] => {
    const unit = b.bench?.unit;
    return [
      b.info.name,
      {
        title: b.info.title,
        colour: b.info.colour,
        unit:
          !unit || unit === 'commit'
            ? commit
            : { key: `${b.info.name}:${unit.id}`, one: unit.one, plural: unit.plural },
        knobs: (b.bench?.recovery?.knobs ?? []).map(({ name, label, phrase }) => ({ name, label, phrase })),
      },
    ];
  };
  return Object.fromEntries([entry({ info: floor.info }), ...benched.map(entry)]);
}

/**
 * The measurements in order, on one infrastructure, for every runtime whose bench serves the
 * section: the units, per step, storage, throughput, recovery; then, with everything of ours
 * stopped, the harness (it brings up its own). A section that fails is reported and the others
 * still run.
 */
export async function runBench(o: {
  plan: Plan;
  runtimes: string[];
  log: (line: string) => void;
  startedAt: number;
  instrumented: boolean;
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
  const benchedList = ctx.benched;
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
  const v = await versions(ctx.infra.databaseUrl, serverVersions(ctx.infra), o.runtimes);
  try {
    // The in-process sections share each bench's session (its pools, clients, in-process workers).
    const inProcess = wants('per-step') || wants('storage');
    const sessions: { b: Benched; s: InProcessBench }[] = [];
    try {
      if (inProcess)
        for (const b of ctx.benched) if (b.bench.inProcess) sessions.push({ b, s: await b.bench.inProcess(ctx.env) });
      const units = await timed('units', async () => ({
        ...(await measurePg(ctx.infra.databaseUrl, plan.units.commits)),
        own: await measureOwnUnits(sessions),
      }));
      report = { ...report, units, pgCommitUs: units?.pgCommitUs ?? null };
      if (wants('per-step') && units) {
        const { measurePerStep } = await import('./per-step.ts');
        report.perStep = await timed('per-step', () => measurePerStep(ctx, units, sessions, floor.info));
      }
      if (wants('storage')) {
        const { measureStorage } = await import('./storage.ts');
        report.storage = await timed('storage', () => measureStorage(ctx, sessions));
      }
    } finally {
      for (const { s } of sessions.reverse()) await s.close().catch(() => undefined);
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
      instrumented: o.instrumented,
      sections: plan.sections,
      sectionMs,
      machine: m,
      versions: v,
      infrastructure: {
        world: describe.world,
        postgres: describe.postgres,
        servers: describe.servers.map((s) => `${s.title} ${s.description}`),
        built: describe.built,
      },
      world: WORLD_LATENCY,
      benched: facts(benchedList),
    },
    ...report,
    runtimes: {},
  };
  full.runtimes = byRuntime(full);
  return { report: full, failures };
}
