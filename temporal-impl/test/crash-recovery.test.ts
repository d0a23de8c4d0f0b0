/**
 * Every crash point of the design, in both variants, end to end: real dev server, real worker
 * processes killed by their own crash plan (SIGKILL), a replacement worker process, the real world
 * server. The world's ledger says what repeated.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CRASH_POINT_NAMES, type CrashPointName, type ReviewRequestInput } from '@vendor-review/domain';
import { vendorRequest } from '@vendor-review/domain/world';
import { type Variant } from '../src/index.ts';
import { runScenario, withExtras, type ScenarioResult } from './support/crash-scenario.ts';
import { startTestEnvironment, type TestEnvironment } from './support/environment.ts';

const bundlePath = inject('workflowBundle');
let env: TestEnvironment;
let request: ReviewRequestInput;
const baselines = new Map<Variant, Promise<ScenarioResult>>();
const timings: string[] = [];

beforeAll(async () => {
  env = await startTestEnvironment();
  const full = vendorRequest('borealis-crm', env.world.url);
  // Two requirements keep each run short and still exercise the requirement loop; both read
  // three candidate pages, so parallel-fetch dies with two of three siblings done.
  const pick = (id: string) => full.requirements.find((r) => r.id === id)!;
  request = { ...full, requirements: [pick('sso'), pick('dpa')] };
});

afterAll(async () => {
  if (timings.length)
    process.stdout.write(`\ncrash → resumed progress (worker B start included):\n${timings.sort().join('\n')}\n`);
  await env?.stop();
});

function baseline(variant: Variant): Promise<ScenarioResult> {
  if (!baselines.has(variant)) {
    baselines.set(
      variant,
      runScenario(env, bundlePath, { label: `baseline-${variant}`, variant, request, crashPoint: null }).then((r) =>
        withExtras(r, null),
      ),
    );
  }
  return baselines.get(variant)!;
}

const repeatedKinds = (r: ScenarioResult) => [...r.repeated.values()].map((es) => es[0]!.kind);

describe.concurrent.each(['naive', 'hardened'] as const)('%s', (variant) => {
  it('uncrashed baseline completes with one mail and one note per requirement', async () => {
    const r = await baseline(variant);
    expect(r.final.status).toBe('completed');
    expect(r.mails).toBe(1);
    expect(r.notes).toBe(2);
    expect(r.final.state?.delivery?.messageId).toBeTruthy();
  });

  it.each(CRASH_POINT_NAMES)(
    'crash at %s: a new worker takes over and the run completes',
    async (point: CrashPointName) => {
      const r = withExtras(
        await runScenario(env, bundlePath, { label: `${variant}-${point}`, variant, request, crashPoint: point }),
        await baseline(variant),
      );
      const context = `\n--- A ---\n${r.output.A}\n--- B ---\n${r.output.B}`;
      expect(r.crash?.point, `worker A did not die at ${point}${context}`).toBe(point);
      expect(r.exitA?.signal).toBe('SIGKILL');
      expect(r.final.status, context).toBe('completed');
      expect(r.recoveryMs, `no progress by worker B after the crash${context}`).not.toBeNull();
      timings.push(
        `  ${variant.padEnd(8)} ${point.padEnd(18)} ${String(r.recoveryMs).padStart(6)}ms  (B cold start ${r.startMsB}ms; first progress ${r.afterReadyMs}ms after B was polling)`,
      );

      const repeated = [...r.repeated.keys()];
      switch (point) {
        case 'boundary':
        case 'awaiting-approval':
          expect(repeated, 'nothing repeats').toEqual([]);
          break;
        case 'after-fetch':
          expect(repeatedKinds(r).length).toBeGreaterThanOrEqual(1);
          expect(new Set(repeatedKinds(r))).toEqual(new Set(['web']));
          break;
        case 'after-model':
        case 'mid-model':
          expect(repeatedKinds(r)).toEqual(['model']);
          expect(r.extraModelCalls).toBe(1);
          break;
        case 'after-progress':
          expect(repeatedKinds(r)).toEqual(['tracker']);
          expect(r.notes).toBe(variant === 'naive' ? 3 : 2);
          break;
        case 'after-deliver':
          expect(repeatedKinds(r)).toEqual(['mail']);
          expect(r.mails).toBe(variant === 'naive' ? 2 : 1);
          break;
        case 'parallel-fetch': {
          // Two of three siblings finished on A and stay finished; only the third ran again, on B.
          expect(r.crash?.detail).toContain('sibling=3/3');
          expect(repeated).toHaveLength(1);
          expect(repeated[0]).toMatch(/^GET /);
          const fetched = (id: string) =>
            r.history.find((e) => e.eventType === 'ActivityTaskCompleted' && e.activityId === id)?.workerIdentity ?? '';
          expect(
            [fetched('FETCH:sso:0'), fetched('FETCH:sso:1'), fetched('FETCH:sso:2')].map((w) => w.split('/')[0]),
          ).toEqual(['A', 'A', 'B']);
          break;
        }
      }
      if (point === 'awaiting-approval') expect(r.approvedWhileNoWorker).toBe(true);
      if (variant === 'hardened') {
        expect(r.digest).toBe((await baseline(variant)).digest);
      }
    },
  );
});
