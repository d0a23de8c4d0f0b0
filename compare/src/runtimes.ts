import type { RuntimeInfo, RuntimeEnv, RuntimeModule, StartedRuntime } from '@vendor-review/conformance';
import { UsageError } from '@vendor-review/worker-io';

/**
 * The registry: every runtime the tools know, one line each, in table order. Each line loads its
 * package's runtime module (who it is, how it starts, how its workers live, what its records say);
 * compare, chaos, bench and lab take runtimes from here and nowhere else. Loaded lazily: a usage
 * mistake is reported before any runtime's libraries are read.
 */
const REGISTRY: Record<string, () => Promise<{ runtime: RuntimeModule }>> = {
  langgraph: () => import('@vendor-review/langgraph/runtime'),
  'langgraph-functional': () => import('@vendor-review/langgraph/functional-runtime'),
  temporal: () => import('@vendor-review/temporal/runtime'),
  dbos: () => import('@vendor-review/dbos/runtime'),
  restate: () => import('@vendor-review/restate/runtime'),
  plain: () => import('./plain-harness/module.ts'),
};

export type { RuntimeEnv, RuntimeModule, StartedRuntime };

/** Every runtime's name, in table order. */
export const RUNTIME_NAMES: readonly string[] = Object.keys(REGISTRY);

/** The module registered under `name`; a name the registry does not have is a usage mistake. */
export async function runtimeModule(name: string): Promise<RuntimeModule> {
  const load = REGISTRY[name];
  if (!load) throw new UsageError(`unknown runtime "${name}" (known: ${RUNTIME_NAMES.join(', ')})`);
  return (await load()).runtime;
}

export function runtimeModules(names: readonly string[] = RUNTIME_NAMES): Promise<RuntimeModule[]> {
  return Promise.all(names.map(runtimeModule));
}

export async function runtimeInfos(names: readonly string[] = RUNTIME_NAMES): Promise<RuntimeInfo[]> {
  return (await runtimeModules(names)).map((m) => m.info);
}

export async function startRuntime(name: string, env: RuntimeEnv): Promise<StartedRuntime> {
  return (await runtimeModule(name)).start(env);
}

/** The libraries each runtime ran on, keyed by runtime: `{ langgraph: { '@langchain/langgraph': '1.7.3' } }`. */
export async function runtimeVersions(
  names: readonly string[] = RUNTIME_NAMES,
): Promise<Record<string, Record<string, string | null>>> {
  return Object.fromEntries((await runtimeModules(names)).map((m) => [m.info.name, m.versions()]));
}
