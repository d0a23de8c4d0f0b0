import type { RuntimeRecords } from '@vendor-review/conformance';
import { withConnection } from '@vendor-review/worker-io';
import { RESTATE_OUTBOX } from '../src/store.ts';

/** What a checker may read of our tables: the hardened outbox. Restate hands out no lease to report. */
export function restateRecords(databaseUrl: string): RuntimeRecords {
  return { outbox: (runIds) => withConnection(databaseUrl, (db) => RESTATE_OUTBOX.forRuns(db, runIds)) };
}
