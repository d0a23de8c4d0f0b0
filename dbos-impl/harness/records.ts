import type { RuntimeRecords } from '@vendor-review/conformance';
import { withConnection } from '@vendor-review/worker-io';
import { DBOS_OUTBOX } from '../src/store.ts';

/** What a checker may read of our tables: the hardened outbox. DBOS hands out no lease to report. */
export function dbosRecords(databaseUrl: string): RuntimeRecords {
  return { outbox: (runIds) => withConnection(databaseUrl, (db) => DBOS_OUTBOX.forRuns(db, runIds)) };
}
