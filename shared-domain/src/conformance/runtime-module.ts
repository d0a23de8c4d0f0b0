import type { RunConfig, RuntimeAdapter, RuntimeInfo, Variant, WorkerSpec } from '../domain/runtime.ts';
import type { OutboxRow } from '../infra/outbox.ts';
import type { SdkDevServer, TemporalHandle } from '../infra/temporal.ts';

/**
 * A runtime module: everything the tools (compare, chaos, bench, lab) may know about one runtime,
 * exported by its own package and listed once in compare/src/runtimes.ts. Nothing else outside the
 * package imports it, names it or reads its tables: what a tool needs of a runtime's records it
 * asks here. `info` must be cheap to import (no runtime libraries), so a usage mistake is reported
 * before any runtime is loaded; `start` loads the rest.
 */
export interface RuntimeModule {
  /** Who it is, its configurations, its colour, and where it departs from the catalogue (with why). */
  readonly info: RuntimeInfo;
  /** The servers it needs besides the world and PostgreSQL, which every runtime gets. */
  readonly needs: RuntimeNeeds;
  /** The libraries it runs on, read from the installed packages (`{ '@langchain/langgraph': '1.7.3' }`). */
  versions(): Record<string, string | null>;
  /** Its tables, its prebuilt workers and its adapter, given the servers. */
  start(env: RuntimeEnv): Promise<StartedRuntime>;
}

export interface RuntimeNeeds {
  /** A Temporal server; `sdkFallback` brings one where there is no CLI and no TEMPORAL_ADDRESS. */
  temporal?: { sdkFallback?: (request: { namespace: string }) => Promise<SdkDevServer> };
}

/** A Temporal server as the harness reached it, for a runtime that needs one. */
export type TemporalEnv = Pick<TemporalHandle, 'address' | 'namespace' | 'connection' | 'workerEnv'> & {
  uiUrl: string | null;
};

export interface RuntimeEnv {
  worldUrl: string;
  databaseUrl: string;
  /** Present when the module's `needs.temporal` was asked for. */
  temporal: TemporalEnv | null;
  /**
   * A pool of workers that serves many runs (chaos) names the queue each configuration's runs go
   * to; unset, a runtime with queues gives every run one of its own.
   */
  sharedQueue?: (config: RunConfig) => string;
  /** Settings a measurement sweeps (bench's recovery), by the names the runtime's `tunables` give. */
  tuning?: Readonly<Record<string, number>>;
}

export interface StartedRuntime {
  info: RuntimeInfo;
  adapter: RuntimeAdapter;
  /** What had to be built for its workers ("worker bundle from cache", "workflow bundle built in 14.2 s"). */
  built: string[];
  workers: WorkerModel;
  records: RuntimeRecords;
}

/**
 * How a runtime's workers live. `per-run`: the harness starts `adapter.workerSpec(run)` for each
 * run and a new one when it dies (LangGraph, a process that owns one thread). `queue`: a fixed set
 * of processes serves every run of a configuration's queue (Temporal's task queue); a dead one is
 * replaced, and any live one may pick a run up.
 */
export type WorkerModel =
  | { kind: 'per-run' }
  | { kind: 'queue'; spec(config: RunConfig, worker: { name: string; crashPlan: string | null }): WorkerSpec };

/** One row of a run's outbox: the hardened mail's guard, sent by whoever drains it. */
export type OutboxFact = Pick<OutboxRow, 'status' | 'attempts' | 'lastError'>;

/** Who wrote one durable record, where the runtime keeps that apart from the record itself. */
export interface ProvenanceFact {
  checkpointId: string;
  writer: string | null;
  token: number | null;
  /** Epoch ms of the transaction that wrote it. */
  writtenAt: number;
}

/** How a run's ownership was left, for a runtime that hands a run to one owner (a lease). */
export interface CompletionFact {
  status: string;
  /** The worker that last wrote the run's status. */
  by: string | null;
  /** The run's lease as it was left: its last owner (`name#pid`), fencing token, and when it was claimed. */
  leaseOwner: string | null;
  leaseToken: number | null;
  leaseClaimedAt: number | null;
  /** When the final status was written (epoch ms). */
  finishedAt: number | null;
}

/**
 * What a checker may read of a runtime's own tables, asked for many runs at once. Parts a runtime
 * does not keep are left out (a runtime with no lease has no completion facts).
 */
export interface RuntimeRecords {
  /** Each run's outbox rows, oldest first; runs with none are absent. */
  outbox(runIds: readonly string[]): Promise<Map<string, OutboxFact[]>>;
  /** Who wrote each durable record, when the durable marks do not say it themselves. */
  provenance?(runIds: readonly string[]): Promise<Map<string, ProvenanceFact[]>>;
  /** How each run's status and lease were left. */
  completion?(runIds: readonly string[]): Promise<Map<string, CompletionFact>>;
}

/** The variant's baseline configuration (its first, at the default granularity). */
export function baselineConfig(info: RuntimeInfo, variant: Variant): RunConfig {
  const config = info.configurations.find((c) => c.variant === variant && !c.granularity);
  if (!config) throw new Error(`${info.title} has no ${variant} configuration`);
  return config;
}
