import type { RunConfig, RunHandle, RuntimeAdapter, Variant } from '@vendor-review/domain';
import { workerBundle } from '@vendor-review/domain/infra';
import type { Infra } from '../infra.ts';
import type { Pool, PoolContext } from './pool.ts';
import type { Armed } from './schedule.ts';
import { QueuePool } from './queue-pool.ts';
import { RunSupervisor } from './run-supervisor.ts';

/** The runtimes a campaign can drive, in table order. */
export const CHAOS_RUNTIMES = ['langgraph', 'temporal'] as const;
export type ChaosRuntimeName = (typeof CHAOS_RUNTIMES)[number];

/**
 * A runtime as the campaign drives it: its adapter (built here, not taken from `pnpm compare`'s
 * registry, because a campaign's Temporal runs share one task queue per variant), the configuration
 * each variant runs in, and the pool its workers live in.
 */
export interface ChaosRuntime {
  name: ChaosRuntimeName;
  adapter: RuntimeAdapter;
  /** The variant as a tutorial (naive) or as production (hardened) would run it: each one's first configuration. */
  configFor(variant: Variant): RunConfig;
  pool(variant: Variant, ctx: PoolContext, size: number, planFor: (slot: number, inc: number) => Armed | null): Pool;
  close(): Promise<void>;
}

function firstConfig(adapter: RuntimeAdapter, variant: Variant): RunConfig {
  const config = adapter.configurations.find((c) => c.variant === variant && !c.granularity);
  if (!config) throw new Error(`${adapter.title} has no ${variant} configuration`);
  return config;
}

const SHORT: Record<ChaosRuntimeName, string> = { langgraph: 'L', temporal: 'T' };
const shortOf = (name: ChaosRuntimeName, variant: Variant) => `${SHORT[name]}${variant === 'naive' ? 'N' : 'H'}`;

export async function startChaosRuntime(
  name: ChaosRuntimeName,
  infra: Pick<Infra, 'worldUrl' | 'databaseUrl' | 'temporal'>,
  /** Names this campaign's task queues, so a Temporal server shared with earlier campaigns keeps them apart. */
  tag: string,
): Promise<ChaosRuntime> {
  if (name === 'langgraph') {
    const lg = await import('@vendor-review/langgraph');
    const [worker] = await Promise.all([workerBundle(lg.WORKER_ENTRY), lg.setupDatabase(infra.databaseUrl)]);
    const adapter = lg.createLangGraphAdapter({
      databaseUrl: infra.databaseUrl,
      worldUrl: infra.worldUrl,
      workerEntry: worker.path,
    });
    return {
      name,
      adapter,
      configFor: (variant) => firstConfig(adapter, variant),
      pool: (variant, ctx) => new RunSupervisor(adapter, variant, ctx, shortOf(name, variant)),
      close: () => adapter.close(),
    };
  }
  const tm = await import('@vendor-review/temporal');
  if (!infra.temporal) throw new Error('the Temporal runtime needs a Temporal server');
  const [worker, bundle] = await Promise.all([
    workerBundle(tm.WORKER_ENTRY, ['@temporalio/*']),
    tm.cachedWorkflowBundle(),
    tm.setupDatabase(infra.databaseUrl),
  ]);
  const queueOf = (variant: Variant) => `chaos-${tag}-${variant}`;
  const adapter = await tm.createTemporalAdapter({
    temporal: infra.temporal,
    uiUrl: infra.temporal.uiUrl,
    databaseUrl: infra.databaseUrl,
    worldUrl: infra.worldUrl,
    bundlePath: bundle.path,
    workerEntry: worker.path,
    taskQueue: (_runId, config) => queueOf(config.variant),
  });
  return {
    name,
    adapter,
    configFor: (variant) => firstConfig(adapter, variant),
    pool: (variant, ctx, size, planFor) => {
      // A queue worker serves no run in particular: its spec is the one any run of its variant's queue gets.
      const anyRun = {
        runId: `${queueOf(variant)}-pool`,
        config: firstConfig(adapter, variant),
        durability: null,
        runtimeIds: {},
        link: null,
        taskQueue: queueOf(variant),
      } satisfies RunHandle & { taskQueue: string };
      return new QueuePool(adapter, variant, ctx, {
        short: shortOf(name, variant),
        size,
        spec: (worker, crashPlan) => adapter.workerSpec(anyRun, { name: worker, crashPlan }),
        planFor,
      });
    },
    close: () => adapter.close(),
  };
}
