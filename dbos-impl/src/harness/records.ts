import type { RuntimeRecords } from '@vendor-review/domain/conformance';
import { withConnection } from '@vendor-review/domain/infra';
import { DBOS_OUTBOX } from '../store.ts';

/** What a checker may read of our tables: the hardened outbox. DBOS hands out no lease to report. */
export function dbosRecords(databaseUrl: string): RuntimeRecords {
  return { outbox: (runIds) => withConnection(databaseUrl, (db) => DBOS_OUTBOX.forRuns(db, runIds)) };
}
