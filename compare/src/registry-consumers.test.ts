import type { RunConfig, RuntimeAdapter, RuntimeInfo } from '@vendor-review/conformance';
import { POLICIES, type RuntimeRecords, type StartedRuntime } from '@vendor-review/conformance';
import type { WorldClient } from '@vendor-review/world';
import { describe, expect, it, vi } from 'vitest';

/**
 * Chaos and the lab take their runtimes from the registry and nowhere else: given a registry of
 * runtimes no source file names (a durable one, one whose suites leave production out, one that
 * serves a queue), their names, defaults, titles, pools and records follow from the modules alone.
 */
const config = (variant: 'naive' | 'hardened'): RunConfig => ({ variant, durability: null });
const info = (name: string, label: string, title: string, suites?: RuntimeInfo['suites']): RuntimeInfo => ({
  name,
  label,
  title,
  colour: '#000',
  configurations: [config('naive'), config('hardened')],
  ...(suites ? { suites } : {}),
});
const INFOS = [
  info('zephyr', 'ZP', 'Zephyr Flow'),
  info('floor', 'FL', 'The Floor', ['crash']),
  info('quill', 'QL', 'Quill Queues', ['crash', 'production']),
];

vi.mock('./runtimes.ts', () => ({
  RUNTIME_NAMES: INFOS.map((i) => i.name),
  runtimeInfos: async (names: readonly string[] = INFOS.map((i) => i.name)) =>
    names.map((n) => INFOS.find((i) => i.name === n)!),
  runtimeModule: async (name: string) => ({ info: INFOS.find((i) => i.name === name)!, needs: {} }),
}));

describe('chaos takes its runtimes from the registry', () => {
  it('--runtime accepts and defaults to the registered runtimes of the production suite, in registry order', async () => {
    const { parseChaosArgs, USAGE } = await import('./chaos/args.ts');
    expect(parseChaosArgs([]).runtimes).toEqual(['zephyr', 'quill']);
    expect(parseChaosArgs(['--runtime', 'quill']).runtimes).toEqual(['quill']);
    expect(() => parseChaosArgs(['--runtime', 'floor'])).toThrow(/unknown runtime "floor" \(known: zephyr, quill\)/);
    expect(USAGE).toContain('--runtime zephyr,quill');
  });

  it('a run id carries the runtime by its label, and a replay finds the runtime again from it', async () => {
    const { chaosRunId } = await import('./chaos/schedule.ts');
    const { replayPlan } = await import('./chaos/replay.ts');
    const runId = chaosRunId('s9', 'QL', 'hardened', 4);
    expect(runId).toBe('chs9-ql-hard-004');
    const plan = await replayPlan({ seed: 's9', runId, reportDir: '/nonexistent', runtimes: INFOS });
    expect(plan).toMatchObject({ runtime: 'quill', variant: 'hardened', index: 4 });
    await expect(
      replayPlan({ seed: 's9', runId: 'chs9-xx-hard-004', reportDir: '/nonexistent', runtimes: INFOS }),
    ).rejects.toThrow(/"xx" is not a runtime a campaign drives \(zp, fl, ql\)/);
  });

  const adapterOf = (i: RuntimeInfo) => ({ ...i }) as unknown as RuntimeAdapter;
  const noRecords: RuntimeRecords = { outbox: async () => new Map() };
  const ctx = {
    journal: { add: () => undefined } as never,
    policy: { ...POLICIES.chaos, restarts: 1 },
    worldUrl: 'http://127.0.0.1:1',
    partitions: false,
  };

  it('the pool follows how the module says its workers live; worker names start with its label', async () => {
    const { chaosRuntime } = await import('./chaos/runtimes.ts');
    const { QueuePool } = await import('./chaos/queue-pool.ts');
    const { PerRunPool } = await import('./chaos/per-run-pool.ts');
    const perRun: StartedRuntime = {
      info: INFOS[0]!,
      adapter: adapterOf(INFOS[0]!),
      built: [],
      workers: { kind: 'per-run' },
      records: noRecords,
    };
    expect(chaosRuntime(perRun).pool('hardened', ctx, 2, () => null)).toBeInstanceOf(PerRunPool);

    const asked: unknown[] = [];
    const queued: StartedRuntime = {
      ...perRun,
      info: INFOS[2]!,
      adapter: adapterOf(INFOS[2]!),
      workers: {
        kind: 'queue',
        spec: (c, worker) => {
          asked.push([c, worker]);
          throw new Error('asked for a spec'); // nothing is spawned: the question is what was asked
        },
      },
    };
    const pool = chaosRuntime(queued).pool('hardened', ctx, 2, () => null);
    expect(pool).toBeInstanceOf(QueuePool);
    expect(pool.id).toBe('quill/hardened');
    await expect(pool.start()).rejects.toThrow(/asked for a spec/);
    expect(asked[0]).toEqual([config('hardened'), { name: 'QLH-w0.0', crashPlan: null }]);
  });

  it('records come from each runtime’s own records: provenance only where they give it, unsent rows from outbox statuses', async () => {
    const { collectEvidence, unsentOutboxRows } = await import('./chaos/run-evidence.ts');
    const row = (status: 'pending' | 'sent' | 'dead') => ({ status, attempts: 1, lastError: null });
    const withAll: RuntimeRecords = {
      outbox: async (ids) => new Map(ids.map((id) => [id, [row('sent'), row('pending')]])),
      provenance: async (ids) =>
        new Map(ids.map((id) => [id, [{ checkpointId: 'c1', writer: 'A', token: 1, writtenAt: 1 }]])),
      completion: async (ids) =>
        new Map(
          ids.map((id) => [
            id,
            { status: 'completed', by: 'A', leaseOwner: 'A#1', leaseToken: 1, leaseClaimedAt: 1, finishedAt: 2 },
          ]),
        ),
    };
    const outboxOnly: RuntimeRecords = { outbox: async (ids) => new Map(ids.map((id) => [id, [row('dead')]])) };
    const adapter = {
      durableRecord: async () => ({ runtime: 'x', kind: 'none', marks: [] }),
      inspect: async () => ({ status: 'completed', state: null }),
    } as unknown as RuntimeAdapter;
    const handle = (runId: string) => ({ runId }) as never;
    const targets = [
      { runtime: 'zephyr', adapter, records: withAll, handle: handle('z1') },
      { runtime: 'quill', adapter, records: outboxOnly, handle: handle('q1') },
    ];
    const world = { ledger: async () => [], outbox: async () => [], notes: async () => [] } as unknown as WorldClient;
    const read = await collectEvidence({ world, targets });
    expect(read.get('z1')).toMatchObject({ provenance: [{ writer: 'A' }], completion: { by: 'A' } });
    expect(read.get('z1')!.outbox.map((r) => r.status)).toEqual(['sent', 'pending']);
    expect(read.get('q1')).toMatchObject({ provenance: null, completion: null, outbox: [{ status: 'dead' }] });
    expect(await unsentOutboxRows(targets)).toBe(1);
  });

  it('the table names a row by the title its module gave', async () => {
    const { poolLabel } = await import('./chaos/drawings.ts');
    expect(poolLabel({ runtime: 'quill', title: 'Quill Queues', variant: 'naive' })).toBe('Quill Queues naive');
  });
});

describe('the lab takes its runtimes from the registry', () => {
  it('serves the production suite’s runtimes, titled as their modules say', async () => {
    const { LAB_RUNTIMES } = await import('./lab/state.ts');
    const { labRuntime, titleOf } = await import('./lab/runtimes.ts');
    expect(LAB_RUNTIMES).toEqual(['zephyr', 'quill']);
    expect(titleOf('quill')).toBe('Quill Queues');
    expect(labRuntime('zephyr')).toBe('zephyr');
    expect(() => labRuntime('floor')).toThrow(/unknown runtime "floor": the lab has zephyr, quill/);
  });
});
