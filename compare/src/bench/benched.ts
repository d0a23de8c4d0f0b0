import type { RuntimeInfo, RuntimeBench, RuntimeModule } from '@vendor-review/conformance';
import { RUNTIME_NAMES, runtimeModules } from '../runtimes.ts';

/**
 * The runtimes the bench can measure: the registry's, in its order, those whose module has a bench. A runtime without one is left out of every section; one whose bench leaves a section
 * out is left out of that section.
 */
export async function benchRuntimeNames(): Promise<string[]> {
  const modules = await runtimeModules(RUNTIME_NAMES);
  return modules.filter((m) => m.bench).map((m) => m.info.name);
}

export interface Benched {
  module: RuntimeModule;
  info: RuntimeInfo;
  bench: RuntimeBench;
}

/** The named runtimes' modules with their benches loaded. */
export async function loadBenched(names: readonly string[]): Promise<Benched[]> {
  const modules = await runtimeModules(names);
  return Promise.all(
    modules.map(async (module) => {
      if (!module.bench) throw new Error(`${module.info.title} has no bench`);
      return { module, info: module.info, bench: await module.bench() };
    }),
  );
}
