import type { RuntimeInfo, Suite } from '@vendor-review/conformance';
import { RUNTIME_NAMES, runtimeInfos } from './runtimes.ts';

/** Whether a runtime takes part in a suite: every suite when its info names none. */
export const takesPart = (info: RuntimeInfo, suite: Suite): boolean => !info.suites || info.suites.includes(suite);

/**
 * The registered runtimes that take part in `suite`, in table order. Chaos and the lab serve those
 * of the production suite: both are about what a durable runtime does when its machines fail, and a
 * runtime without durability (one that only shows what a crash costs with nothing kept) has no
 * durable record to read.
 */
export async function runtimesIn(suite: Suite, names: readonly string[] = RUNTIME_NAMES): Promise<string[]> {
  const infos = await runtimeInfos(names);
  return infos.filter((info) => takesPart(info, suite)).map((info) => info.name);
}
