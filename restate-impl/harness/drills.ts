import type { RunHandle, RuntimeDrills } from '@vendor-review/conformance';
import type pg from 'pg';
import type { RestateJournal } from './journal.ts';
import { RESTATE_SERVER } from './server/spec.ts';

/** A Restate error as an endpoint printed it: the class name and its message, one line. */
const RESTATE_ERROR = /\b(TerminalError|RestateError)\b:?\s*([^\n]*)/;

export function restateDrills<H extends RunHandle>(_o: { journal: RestateJournal; pool: pg.Pool }): RuntimeDrills<H> {
  return {
    // The journal and the workflow's state are in the server; hardened's outbox and counts in PostgreSQL.
    servers: (config) => (config.variant === 'hardened' ? [RESTATE_SERVER.id, 'postgres'] : [RESTATE_SERVER.id]),
    async explain(_h, endings) {
      for (const e of [...endings].reverse()) {
        const m = RESTATE_ERROR.exec(e.output);
        if (m)
          return {
            where: `worker ${e.name} (${e.signal ?? `exit code ${e.exitCode}`})`,
            error: `${m[1]}: ${m[2]}`.slice(0, 300),
            kind: m[1]!,
          };
      }
      return null;
    },
  };
}
