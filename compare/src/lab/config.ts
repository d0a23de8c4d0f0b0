import {
  DEFAULT_GRANULARITY,
  DURABILITIES,
  GRANULARITIES,
  granularityOf,
  VARIANTS,
  type Durability,
  type Granularity,
  type Variant,
} from '@vendor-review/pipeline';
import { type RunConfig, type RunHandle, type RuntimeInfo } from '@vendor-review/conformance';
import { UsageError } from '@vendor-review/worker-io';

/**
 * `--variant`, `--durability` and `--granularity` as a person types them, checked against the
 * configurations the runtime itself lists (its RuntimeInfo), so the lab offers exactly what the
 * runtime's adapter runs.
 */
function oneOf<T extends string>(flag: string, allowed: readonly T[], text: string | undefined): T | null {
  if (text === undefined) return null;
  if (!(allowed as readonly string[]).includes(text))
    throw new UsageError(`--${flag} must be one of ${allowed.join(', ')}, got "${text}"`);
  return text as T;
}

export const parseVariant = (text: string | undefined): Variant | null => oneOf('variant', VARIANTS, text);
export const parseDurability = (text: string | undefined): Durability | null => oneOf('durability', DURABILITIES, text);
export const parseGranularity = (text: string | undefined): Granularity | null =>
  oneOf('granularity', GRANULARITIES, text);

/** "naive/async", "hardened", "naive/sync coarse": how the lab names a configuration. */
export function describeConfig(c: RunConfig, durability: Durability | null = c.durability): string {
  const g = granularityOf(c);
  const base = durability && c.variant === 'naive' ? `${c.variant}/${durability}` : c.variant;
  return g === DEFAULT_GRANULARITY ? base : `${base} ${g}`;
}

export const handleLabel = (h: RunHandle) => describeConfig(h.config, h.durability);

/**
 * The configuration a new run gets: the variant asked (naive by default, the tutorial way), in the
 * durability and granularity asked, or the first the runtime lists for that variant.
 */
export function runConfig(
  info: RuntimeInfo,
  variant: Variant | null,
  durability: Durability | null,
  granularity: Granularity | null,
): RunConfig {
  const v = variant ?? 'naive';
  const g = granularity ?? DEFAULT_GRANULARITY;
  const mine = info.configurations.filter((c) => c.variant === v && granularityOf(c) === g);
  const found = durability ? mine.find((c) => c.durability === durability) : mine[0];
  if (!found)
    throw new UsageError(
      `${info.title} has no ${[v, durability && `durability ${durability}`, granularity].filter(Boolean).join(', ')}: ` +
        `it runs as ${info.configurations.map((c) => describeConfig(c)).join(', ')}`,
      { seeHelp: false },
    );
  return found;
}

/** A worker's filter must name something the runtime can run, or it would silently take nothing. */
export function checkFilter(info: RuntimeInfo, variant: Variant | null, durability: Durability | null): void {
  if (!durability) return;
  const ok = info.configurations.some((c) => c.durability === durability && (!variant || c.variant === variant));
  if (!ok)
    throw new UsageError(
      `${info.title}${variant ? ` ${variant}` : ''} has no durability "${durability}": it runs as ${info.configurations.map((c) => describeConfig(c)).join(', ')}`,
      { seeHelp: false },
    );
}
