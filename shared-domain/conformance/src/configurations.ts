import type { Durability } from '@vendor-review/pipeline';
import type { RunConfig } from './adapter.ts';

/** The granularities below `fine` a runtime may also run the same pipeline in (domain granularity.ts). */
const COARSER = ['per-requirement', 'coarse'] as const;

/**
 * A runtime's configurations, in the order the tables list them: naive in each durability mode the
 * runtime offers (none: `[null]`), hardened in the one it picks; then, unless `coarser` is false,
 * both variants again at the coarser granularities (naive in the durability `coarser` names), which
 * only the granularity suite runs: the crash catalogue keeps to `fine`.
 */
export function runConfigurations(
  o: { naive?: readonly (Durability | null)[]; coarser?: Durability | null | false } = {},
): RunConfig[] {
  const fine: RunConfig[] = [
    ...(o.naive ?? [null]).map((durability) => ({ variant: 'naive' as const, durability })),
    { variant: 'hardened', durability: null },
  ];
  const coarser = o.coarser ?? null;
  if (coarser === false) return fine;
  return [
    ...fine,
    ...COARSER.map((granularity) => ({ variant: 'naive' as const, durability: coarser, granularity })),
    ...COARSER.map((granularity) => ({ variant: 'hardened' as const, durability: null, granularity })),
  ];
}
