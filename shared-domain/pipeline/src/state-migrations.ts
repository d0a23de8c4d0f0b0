import { PermanentError } from './errors.ts';
import { STATE_SCHEMA_VERSION, type ReviewState } from './state.ts';

/**
 * A checkpoint written by last month's code is read by today's. Each entry turns a state of
 * version N into version N+1; migrateState walks the chain. A version we do not know, newer or
 * missing, is refused whole: half-reading state is how a resume fails three nodes later.
 */
type Migration = (state: Record<string, unknown>) => Record<string, unknown>;

export const STATE_MIGRATIONS: Record<number, Migration> = {
  // v1 -> v2: the sitemap's page list was renamed from `sitemap` to `pages`.
  1: ({ sitemap, ...rest }) => ({ ...rest, pages: sitemap ?? [], schemaVersion: 2 }),
};

export class UnsupportedStateVersionError extends PermanentError {
  constructor(readonly found: unknown) {
    super(
      `cannot read state with schemaVersion ${JSON.stringify(found)}: this code reads versions 1..${STATE_SCHEMA_VERSION}` +
        (typeof found === 'number' && found > STATE_SCHEMA_VERSION
          ? ' (written by newer code: deploy it, or restore the old checkpoint reader)'
          : ''),
      'unsupported-state-version',
    );
  }
}

export function stateVersionOf(raw: unknown): unknown {
  return raw && typeof raw === 'object' ? (raw as Record<string, unknown>).schemaVersion : undefined;
}

export function migrateState(raw: unknown): ReviewState {
  const found = stateVersionOf(raw);
  if (typeof found !== 'number' || !Number.isInteger(found) || found < 1 || found > STATE_SCHEMA_VERSION) {
    throw new UnsupportedStateVersionError(found);
  }
  let version: number = found;
  let state = raw as Record<string, unknown>;
  while (version < STATE_SCHEMA_VERSION) {
    const step = STATE_MIGRATIONS[version];
    if (!step) throw new UnsupportedStateVersionError(version);
    state = step(state);
    version = state.schemaVersion as number;
  }
  return state as unknown as ReviewState;
}

/** A v1 state, as the previous release wrote it; used by tests and the migration demo. */
export function toV1(state: ReviewState): Record<string, unknown> {
  const { pages, ...rest } = state;
  return { ...rest, sitemap: pages, schemaVersion: 1 };
}
