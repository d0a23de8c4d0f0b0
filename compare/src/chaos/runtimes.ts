import type { RunConfig, RunHandle, RuntimeAdapter, Variant } from '@vendor-review/domain';
import type { Infra } from '../infra.ts';
import { startRuntime } from '../runtimes.ts';
import type { Pool, PoolContext } from './pool.ts';
import type { Armed } from './schedule.ts';
import { QueuePool } from './queue-pool.ts';
import { RunSupervisor } from './run-supervisor.ts';

/** The runtimes a campaign can drive, in table order. */
export const CHAOS_RUNTIMES = ['langgraph', 'temporal'] as const;
export type ChaosRuntimeName = (typeof CHAOS_RUNTIMES)[number];

/**
 * A runtime as the campaign drives it: its adapter (from `pnpm compare`'s registry, with one task
 * queue per variant that all of a campaign's Temporal runs share), the configuration each variant
 * runs in, and the pool its workers live in.
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
  const queueOf = (variant: Variant) => `chaos-${tag}-${variant}`;
  const { adapter } = await startRuntime(name, {
    worldUrl: infra.worldUrl,
    databaseUrl: infra.databaseUrl,
    temporal: infra.temporal,
    sharedQueue: (config) => queueOf(config.variant),
  });
  const runtime = {
    name,
    adapter,
    configFor: (variant: Variant) => firstConfig(adapter, variant),
    close: () => adapter.close(),
  };
  if (name === 'langgraph')
    return { ...runtime, pool: (variant, ctx) => new RunSupervisor(adapter, variant, ctx, shortOf(name, variant)) };
  return {
    ...runtime,
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
  };
}
