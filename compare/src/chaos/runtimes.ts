import type { Variant } from '@vendor-review/pipeline';
import type { RunConfig, RuntimeAdapter, RuntimeInfo } from '@vendor-review/conformance';
import { baselineConfig, type RuntimeRecords, type StartedRuntime } from '@vendor-review/conformance';
import type { Pool, PoolContext } from './pool.ts';
import { QueuePool } from './queue-pool.ts';
import { PerRunPool } from './per-run-pool.ts';
import type { Armed } from './schedule.ts';

/**
 * A runtime as the campaign drives it, made from what its module started (compare/src/runtimes.ts):
 * its adapter, its records, the configuration each variant runs in, and the pool its workers live
 * in, chosen by how its workers live (a process per run, or a fixed set serving the queue of a
 * variant). Nothing here knows a runtime by name.
 */
export interface ChaosRuntime {
  name: string;
  info: RuntimeInfo;
  adapter: RuntimeAdapter;
  records: RuntimeRecords;
  /** The variant as a tutorial (naive) or as production (hardened) would run it: its baseline configuration. */
  configFor(variant: Variant): RunConfig;
  pool(variant: Variant, ctx: PoolContext, size: number, planFor: (slot: number, inc: number) => Armed | null): Pool;
}

/** The queue every run of a variant shares in a campaign: a Temporal server shared with earlier campaigns keeps them apart by the tag. */
export const chaosQueue = (tag: string) => (config: RunConfig) => `chaos-${tag}-${config.variant}`;

/** Worker names start with the runtime's label and the variant's initial: "LGN-007.0", "TMH-w1.2". */
const shortOf = (info: RuntimeInfo, variant: Variant) => `${info.label}${variant === 'naive' ? 'N' : 'H'}`;

export function chaosRuntime(started: StartedRuntime): ChaosRuntime {
  const { info, adapter, records, workers } = started;
  const configFor = (variant: Variant) => baselineConfig(info, variant);
  return {
    name: info.name,
    info,
    adapter,
    records,
    configFor,
    pool: (variant, ctx, size, planFor) => {
      if (workers.kind === 'per-run') return new PerRunPool(adapter, variant, ctx, shortOf(info, variant));
      const config = configFor(variant);
      return new QueuePool(adapter, variant, ctx, {
        short: shortOf(info, variant),
        size,
        spec: (name, crashPlan) => workers.spec(config, { name, crashPlan }),
        planFor,
      });
    },
  };
}
