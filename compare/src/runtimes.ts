import type { RunConfig, RuntimeAdapter, RuntimeInfo } from '@vendor-review/domain';
import { workerBundle, type Built, type TemporalHandle } from '@vendor-review/domain/infra';

/**
 * The runtimes `pnpm compare` knows, each behind its own adapter. Adding one is one entry here (its
 * package provides the adapter and passes the crash conformance suite). Loaded lazily: a usage
 * mistake is reported before any runtime's libraries are read.
 */
export interface RuntimeEnv {
  worldUrl: string;
  databaseUrl: string;
  /** Present when a selected runtime needs Temporal. */
  temporal:
    (Pick<TemporalHandle, 'address' | 'namespace' | 'connection' | 'workerEnv'> & { uiUrl: string | null }) | null;
  /**
   * Each run's task queue, for a runtime that has queues (Temporal); unset, every run gets one of
   * its own. The chaos campaign's pools poll one per variant, shared by all of its runs.
   */
  taskQueue?: (runId: string, config: RunConfig) => string;
}

export interface StartedRuntime {
  info: RuntimeInfo;
  adapter: RuntimeAdapter;
  /** What had to be built for its workers ("worker bundle from cache", "workflow bundle built in 14.2 s"). */
  built: string[];
}

interface Registered {
  needsTemporal: boolean;
  info(): Promise<RuntimeInfo>;
  start(env: RuntimeEnv): Promise<StartedRuntime>;
}

function describeBuild(what: string, b: Built): string {
  return `${what} ${b.cached ? 'from cache' : `built in ${(b.ms / 1000).toFixed(1)} s`}`;
}

const REGISTRY: Record<string, Registered> = {
  langgraph: {
    needsTemporal: false,
    info: async () => (await import('@vendor-review/langgraph')).LANGGRAPH,
    async start(env) {
      const lg = await import('@vendor-review/langgraph');
      const [worker] = await Promise.all([workerBundle(lg.WORKER_ENTRY), lg.setupDatabase(env.databaseUrl)]);
      const adapter = lg.createLangGraphAdapter({
        databaseUrl: env.databaseUrl,
        worldUrl: env.worldUrl,
        workerEntry: worker.path,
      });
      return { info: lg.LANGGRAPH, adapter, built: [describeBuild('LangGraph worker', worker)] };
    },
  },
  temporal: {
    needsTemporal: true,
    info: async () => (await import('@vendor-review/temporal')).TEMPORAL,
    async start(env) {
      const tm = await import('@vendor-review/temporal');
      if (!env.temporal) throw new Error('the Temporal runtime needs a Temporal server');
      const [worker, bundle] = await Promise.all([
        // The SDK loads a native bridge and its own sandbox code from its package: left external.
        workerBundle(tm.WORKER_ENTRY, ['@temporalio/*']),
        tm.cachedWorkflowBundle(),
        tm.setupDatabase(env.databaseUrl),
      ]);
      const adapter = await tm.createTemporalAdapter({
        temporal: env.temporal,
        uiUrl: env.temporal.uiUrl,
        databaseUrl: env.databaseUrl,
        worldUrl: env.worldUrl,
        bundlePath: bundle.path,
        workerEntry: worker.path,
        ...(env.taskQueue ? { taskQueue: env.taskQueue } : {}),
      });
      return {
        info: tm.TEMPORAL,
        adapter,
        built: [describeBuild('Temporal worker', worker), describeBuild('workflow bundle', bundle)],
      };
    },
  },
  plain: {
    needsTemporal: false,
    info: async () => (await import('./plain/adapter.ts')).PLAIN,
    async start(env) {
      const plain = await import('./plain/adapter.ts');
      const worker = await workerBundle(plain.PLAIN_WORKER_ENTRY);
      const adapter = await plain.createPlainAdapter({
        databaseUrl: env.databaseUrl,
        worldUrl: env.worldUrl,
        workerEntry: worker.path,
      });
      return { info: plain.PLAIN, adapter, built: [describeBuild('plain worker', worker)] };
    },
  },
};

/** Every runtime's name, in table order. */
export const RUNTIME_NAMES: readonly string[] = Object.keys(REGISTRY);

function registered(name: string): Registered {
  const r = REGISTRY[name];
  if (!r) throw new Error(`no runtime "${name}" (known: ${RUNTIME_NAMES.join(', ')})`);
  return r;
}

export function needsTemporal(names: readonly string[]): boolean {
  return names.some((n) => registered(n).needsTemporal);
}

export function runtimeInfos(names: readonly string[]): Promise<RuntimeInfo[]> {
  return Promise.all(names.map((n) => registered(n).info()));
}

export function startRuntime(name: string, env: RuntimeEnv): Promise<StartedRuntime> {
  return registered(name).start(env);
}
