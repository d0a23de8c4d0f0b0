import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { callKindOf, POINT_SITES, type CrashPointName } from '@vendor-review/instrument';
import type { Durability, Variant } from '@vendor-review/pipeline';
import { POSTED_PATHS } from '@vendor-review/world';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runThroughAdapter } from './crash-spec.ts';
import { computeEvidence, countBy, executed } from './evidence.ts';
import type { CellObservation } from './observation.ts';
import type { RuntimeModule } from './runtime-module.ts';
import { scenarioFor } from './scenarios.ts';
import { runtimeUnderTest, type RuntimeUnderTest } from './under-test.ts';

/**
 * `pnpm crash-test` pointed at one of our own runtimes' pipelines, held against `pnpm compare`'s
 * cells for the same configuration at the points both have: the same calls must go out again, as
 * often, and the same step must run again. The tool sees the app from outside (its HTTP client, the
 * runtime's step hook) and replays the baseline's answers; compare's cells count at the world. Where
 * they disagree, one of the two instruments is wrong about the runtime.
 *
 * The points both have: a step beginning (`boundary`, EXTRACT), and a call in flight or answered
 * (the first model call, the first tracker note, the mail). Not `after-fetch` or `parallel-fetch`:
 * which sibling page arrives first is a race that compare's rows show as a distribution; not
 * `mid-commit` or `awaiting-approval`: crash-test has no commit hook and does not kill a waiting run.
 */
export const AGREEING_POINTS = [
  'boundary',
  'mid-model',
  'after-model',
  'after-progress',
  'after-deliver',
] as const satisfies readonly CrashPointName[];
type AgreeingPoint = (typeof AGREEING_POINTS)[number];

/** The world's routes of the calls the agreeing points are at, as `--calls` narrows to them. */
const NARROWED_PATHS = [POSTED_PATHS.model, POSTED_PATHS.tracker, POSTED_PATHS.mail];

/** The checkout's root, where a team runs `pnpm crash-test`. */
const WORKSPACE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface CrashTestAgreementOptions {
  module: RuntimeModule;
  configuration: { variant: Variant; durability: Durability | null };
  /**
   * The app as `pnpm crash-test` takes it, given the world the run reviews: the module's absolute
   * path and the runtime's own options (`--resume`, `--activities`, `--workflow`, `--input`,
   * `--signal`, `--durability`).
   */
  app(worldUrl: string): string[];
  /** What crash-test sees begin as EXTRACT: the node, or the activity type. */
  extractStep: string;
  /**
   * The environment that points crash-test at the servers already started for compare's cells
   * (the way a team points it at its own), so it starts none of its own beside them.
   */
  serverEnv?(under: RuntimeUnderTest): Record<string, string>;
}

const Finding = z.object({
  id: z.string(),
  point: z.discriminatedUnion('at', [
    z.object({ at: z.enum(['after-call', 'in-flight']), call: z.string(), occurrence: z.number() }),
    z.object({ at: z.literal('step'), step: z.string(), occurrence: z.number() }),
  ]),
  mode: z.enum(['replay', 'live']),
  resumed: z.boolean(),
  stuck: z.string().nullable(),
  again: z.array(z.object({ call: z.string(), extra: z.number() })),
  stepsAgain: z.array(z.string()),
});
const Results = z.object({ findings: z.array(Finding) });
type Finding = z.infer<typeof Finding>;

/** "POST 127.0.0.1:4100/mail/send" → "POST /mail/send". */
const withoutHost = (call: string) => {
  const [method, where] = call.split(' ') as [string, string];
  return `${method} ${where.slice(where.indexOf('/'))}`;
};

/** Compare's side: the calls a cell made beyond its baseline, per method and path, from the world's ledger. */
function againAtTheWorld(cell: CellObservation, baseline: CellObservation): Record<string, number> {
  const count = (o: CellObservation) => countBy(executed(o.ledger), (e) => `${e.method} ${e.path}`);
  const base = count(baseline);
  return Object.fromEntries(
    [...count(cell)].filter(([k, n]) => n > (base.get(k) ?? 0)).map(([k, n]) => [k, n - (base.get(k) ?? 0)]),
  );
}

/** Crash-test's side, the same measure. */
const againAtTheClient = (f: Finding): Record<string, number> =>
  Object.fromEntries(f.again.map((r) => [withoutHost(r.call), r.extra]));

/** Where crash-test killed for a point of the matrix: the same site, its first occurrence. */
function findingAt(findings: readonly Finding[], point: AgreeingPoint, extractStep: string): Finding | undefined {
  const site = POINT_SITES[point];
  return findings.find(({ point: p }) => {
    if (site.kind === 'step') return p.at === 'step' && p.step === extractStep && p.occurrence === 1;
    if (site.kind !== 'call' || p.at === 'step' || p.occurrence !== 1) return false;
    const [method, path] = withoutHost(p.call).split(' ') as [string, string];
    const moment = p.at === 'after-call' ? 'after' : 'in-flight';
    return site.moment === moment && callKindOf(method, path) === site.call;
  });
}

/** The names a runtime gives a step ("SAVE_PROGRESS", "saveProgress"), compared as one. */
const stepName = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** `pnpm crash-test` as a team runs it, from the checkout's root; its results.json. */
async function crashTest(args: string[], env: NodeJS.ProcessEnv): Promise<Finding[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'crash-test-agreement-'));
  try {
    const out = await new Promise<{ code: number; output: string }>((resolve) =>
      execFile(
        'pnpm',
        ['crash-test', ...args, '--report-dir', dir],
        { cwd: WORKSPACE_ROOT, env: { ...process.env, ...env }, maxBuffer: 1 << 24 },
        (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, output: stdout + stderr }),
      ),
    );
    if (out.code !== 0) throw new Error(`pnpm crash-test exited ${out.code}:\n${out.output.slice(-4000)}`);
    return Results.parse(JSON.parse(await readFile(path.join(dir, 'results.json'), 'utf8'))).findings;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** One spec, each runtime's test a short initializer: see CrashTestAgreementOptions. */
export function crashTestAgreementSpec(o: CrashTestAgreementOptions): void {
  const { info } = o.module;
  const config = `${info.name}/${o.configuration.variant}/${o.configuration.durability ?? '-'}`;
  let under: RuntimeUnderTest | undefined;
  const cells = new Map<CrashPointName | null, CellObservation>();
  let findings: Finding[] = [];

  describe(`pnpm crash-test on our own ${info.title} (${config}) agrees with pnpm compare's cells`, () => {
    beforeAll(async () => {
      under = await runtimeUnderTest(o.module, { name: 'crash_test_agreement' });
      const scenarios = [null, ...AGREEING_POINTS].map((p) => scenarioFor(info, o.configuration, p));
      const narrowing = [
        '--calls',
        NARROWED_PATHS.map((p) => `${p}#1`).join(','),
        '--steps',
        `${o.extractStep}#1`,
        // Its cells mostly wait (a lease, a heartbeat timeout): four at once cost little CPU.
        '--concurrency',
        '4',
      ];
      // Side by side: the compare cells and the crash test are separate runs against the same world.
      const [observed, found] = await Promise.all([
        runThroughAdapter(() => under!.env(), { concurrency: 3 })(scenarios),
        crashTest([...o.app(under.world.url), ...narrowing], {
          ...o.serverEnv?.(under),
          WORLD_URL: under.world.url,
          DATABASE_URL: under.databaseUrl,
        }),
      ]);
      for (const obs of observed) cells.set(obs.scenario.crashPoint, obs);
      findings = found;
    }, 10 * 60_000);
    afterAll(async () => {
      await under?.stop();
    });

    it.each(AGREEING_POINTS)('%s: the same calls go out again, as often, and the same step runs again', (point) => {
      const cell = cells.get(point)!;
      const baseline = cells.get(null)!;
      expect(baseline.status, baseline.note ?? '').toBe('completed');
      expect(cell.status, cell.note ?? '').toBe('completed');
      const f = findingAt(findings, point, o.extractStep);
      expect(f, `crash-test made no cell at ${point} (it made ${findings.map((x) => x.id).join(', ')})`).toBeDefined();
      expect(f).toMatchObject({ mode: 'replay', resumed: true, stuck: null });
      expect(againAtTheClient(f!), `${f!.id} against ${cell.scenario.id}`).toEqual(againAtTheWorld(cell, baseline));
      // The row's "first after resume" names the step the resumed worker's first call was made in.
      const firstAfterResume = computeEvidence(cell, baseline).firstAfterResumeShort.split(' ')[0]!;
      expect(f!.stepsAgain.map(stepName), f!.id).toEqual([stepName(firstAfterResume)]);
    });
  });
}
