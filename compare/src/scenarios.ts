import { CRASH_POINT_NAMES, type CrashPointName } from '@vendor-review/domain/pure';
import type { FaultRuleInput } from '@vendor-review/domain/world';

/**
 * The scenario catalogue as data. Adding a crash point to the design adds rows here for both
 * runtimes without a second code path: the cell runner and the evidence never branch on the name.
 */
export type RuntimeName = 'langgraph' | 'temporal';
export type Variant = 'naive' | 'hardened';
export type Durability = 'sync' | 'async' | 'exit';

export const RUNTIMES: readonly RuntimeName[] = ['langgraph', 'temporal'];
export const VARIANTS: readonly Variant[] = ['naive', 'hardened'];
export const DURABILITIES: readonly Durability[] = ['sync', 'async', 'exit'];

export interface Scenario {
  /** Stable and unique, e.g. "langgraph/naive/async/after-model" or "temporal/hardened/-/baseline". */
  id: string;
  runtime: RuntimeName;
  variant: Variant;
  /**
   * LangGraph durability mode asked for, or null: Temporal has none, and LangGraph hardened runs in
   * whatever mode its implementation chose (the row reports the mode the run actually used).
   */
  durability: Durability | null;
  /** null: the uncrashed baseline the crashed cells of this runtime/variant are compared with. */
  crashPoint: CrashPointName | null;
  /** Which baseline this cell is judged against. */
  baselineId: string;
  /** World faults to install for this run only (none in the standard catalogue); the cell scopes them to its run id. */
  faults: readonly Omit<FaultRuleInput, 'runId'>[];
}

/** LangGraph's default durability: what a tutorial gets without choosing. */
export const LANGGRAPH_DEFAULT_DURABILITY: Durability = 'async';

export function scenarioId(
  runtime: RuntimeName,
  variant: Variant,
  durability: Durability | null,
  crashPoint: CrashPointName | null,
): string {
  return `${runtime}/${variant}/${durability ?? '-'}/${crashPoint ?? 'baseline'}`;
}

/** Durability rows for one runtime/variant: LangGraph naive in all three modes, everything else once. */
function durabilitiesFor(runtime: RuntimeName, variant: Variant): (Durability | null)[] {
  if (runtime !== 'langgraph') return [null];
  if (variant === 'naive')
    return [LANGGRAPH_DEFAULT_DURABILITY, ...DURABILITIES.filter((d) => d !== LANGGRAPH_DEFAULT_DURABILITY)];
  return [null];
}

function baselineDurability(runtime: RuntimeName, variant: Variant): Durability | null {
  return runtime === 'langgraph' && variant === 'naive' ? LANGGRAPH_DEFAULT_DURABILITY : null;
}

export function baselineIdFor(runtime: RuntimeName, variant: Variant): string {
  return scenarioId(runtime, variant, baselineDurability(runtime, variant), null);
}

/** The full catalogue: one baseline per runtime × variant, then every crash point in every row. */
export function fullCatalogue(): Scenario[] {
  const out: Scenario[] = [];
  for (const runtime of RUNTIMES) {
    for (const variant of VARIANTS) {
      const baselineId = baselineIdFor(runtime, variant);
      out.push({
        id: baselineId,
        runtime,
        variant,
        durability: baselineDurability(runtime, variant),
        crashPoint: null,
        baselineId,
        faults: [],
      });
    }
  }
  for (const crashPoint of CRASH_POINT_NAMES) {
    for (const runtime of RUNTIMES) {
      for (const variant of VARIANTS) {
        for (const durability of durabilitiesFor(runtime, variant)) {
          out.push({
            id: scenarioId(runtime, variant, durability, crashPoint),
            runtime,
            variant,
            durability,
            crashPoint,
            baselineId: baselineIdFor(runtime, variant),
            faults: [],
          });
        }
      }
    }
  }
  return out;
}

export interface Selection {
  runtimes?: readonly RuntimeName[];
  variants?: readonly Variant[];
  crashPoints?: readonly CrashPointName[];
  durabilities?: readonly Durability[];
  /** Leave the baselines out (only when the caller supplies them another way). */
  withoutBaselines?: boolean;
}

/**
 * Filters the catalogue. A crashed cell is meaningless without its baseline, so the baselines of
 * every selected runtime/variant are always kept, whatever the crash filter says.
 */
export function selectScenarios(sel: Selection, catalogue: Scenario[] = fullCatalogue()): Scenario[] {
  const crashed = catalogue.filter(
    (s) =>
      s.crashPoint !== null &&
      (!sel.runtimes || sel.runtimes.includes(s.runtime)) &&
      (!sel.variants || sel.variants.includes(s.variant)) &&
      (!sel.crashPoints || sel.crashPoints.includes(s.crashPoint)) &&
      (!sel.durabilities || s.durability === null || sel.durabilities.includes(s.durability)),
  );
  if (sel.withoutBaselines) return crashed;
  const wanted = new Set(crashed.map((s) => s.baselineId));
  for (const s of catalogue) {
    if (
      s.crashPoint === null &&
      (!sel.runtimes || sel.runtimes.includes(s.runtime)) &&
      (!sel.variants || sel.variants.includes(s.variant))
    )
      wanted.add(s.id);
  }
  return [...catalogue.filter((s) => s.crashPoint === null && wanted.has(s.id)), ...crashed];
}
