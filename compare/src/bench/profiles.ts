import type { RuntimeInfo, BenchProfile, RuntimeModule } from '@vendor-review/conformance';
import { RUNTIME_NAMES, runtimeModules } from '../runtimes.ts';

/**
 * The runtimes the bench can measure: the registry's, in its order, those whose module has a bench
 * profile. A runtime without one is left out of every section; one whose profile leaves a section
 * out is left out of that section.
 */
export async function benchRuntimeNames(): Promise<string[]> {
  const modules = await runtimeModules(RUNTIME_NAMES);
  return modules.filter((m) => m.bench).map((m) => m.info.name);
}

export interface Benched {
  module: RuntimeModule;
  info: RuntimeInfo;
  profile: BenchProfile;
}

/** The named runtimes' modules with their profiles loaded. */
export async function loadBenched(names: readonly string[]): Promise<Benched[]> {
  const modules = await runtimeModules(names);
  return Promise.all(
    modules.map(async (module) => {
      if (!module.bench) throw new Error(`${module.info.title} has no bench profile`);
      return { module, info: module.info, profile: await module.bench() };
    }),
  );
}
