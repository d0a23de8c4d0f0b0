import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { databaseUrl, maskDatabaseUrl } from '@vendor-review/testbed';
import { withConnection } from '@vendor-review/worker-io';

/**
 * A user's database stays tidy. Every `pnpm compare` against DATABASE_URL keeps what it creates
 * (each runtime's tables, every run, checkpoint and outbox row) in a database of its own on the
 * same server, named after the user's and recorded in one small table there
 * (`vendor_review_compare_runs`). The runs stay there to be looked at afterwards; `pnpm compare
 * --clean` drops exactly the databases that table lists, never anything else.
 */
export const RUNS_TABLE = 'vendor_review_compare_runs';

export interface InvocationDatabase {
  name: string;
  url: string;
  /** Records when the invocation ended (its data stays). */
  finish(): Promise<void>;
}

const withClient = <T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> =>
  withConnection(url, fn, { connectTimeoutMs: 5_000 });

const ensureTable = (c: pg.Client) =>
  c.query(`CREATE TABLE IF NOT EXISTS ${RUNS_TABLE} (
    database text PRIMARY KEY,
    started_at timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz,
    command text NOT NULL
  )`);

/** `vendor_review` → `vendor_review_cmp_20261201_113000_a1b2` (PostgreSQL names stop at 63 bytes). */
function invocationName(userDatabase: string, at = new Date()): string {
  const stamp = at.toISOString().replace(/[-:]/g, '').replace('T', '_').slice(0, 15);
  const base =
    userDatabase
      .toLowerCase()
      .replace(/[^a-z0-9_]+/g, '_')
      .slice(0, 30) || 'db';
  return `${base}_cmp_${stamp}_${randomBytes(2).toString('hex')}`;
}

/** Creates this invocation's database beside the user's, recorded in the user's database first. */
export async function openInvocationDatabase(userUrl: string, command: string): Promise<InvocationDatabase> {
  const userDatabase = decodeURIComponent(new URL(userUrl).pathname.slice(1)) || 'postgres';
  const name = invocationName(userDatabase);
  await withClient(userUrl, async (c) => {
    await ensureTable(c);
    // Recorded before it exists: a crash in between leaves a row --clean can act on, never an orphan.
    await c.query(`INSERT INTO ${RUNS_TABLE} (database, command) VALUES ($1, $2)`, [name, command]);
    try {
      await c.query(`CREATE DATABASE ${c.escapeIdentifier(name)}`);
    } catch (err) {
      await c.query(`DELETE FROM ${RUNS_TABLE} WHERE database = $1`, [name]);
      throw new Error(
        `postgres: cannot create this run's database ${name} beside DATABASE_URL=${maskDatabaseUrl(userUrl)} ` +
          `(${err instanceof Error ? err.message : String(err)}): grant the user CREATEDB, or unset DATABASE_URL to use an embedded PostgreSQL`,
      );
    }
  });
  return {
    name,
    url: databaseUrl(userUrl, name),
    finish: () =>
      withClient(userUrl, (c) =>
        c.query(`UPDATE ${RUNS_TABLE} SET finished_at = now() WHERE database = $1`, [name]),
      ).then(() => undefined),
  };
}

/** Drops every database an earlier invocation recorded, and only those; returns their names. */
export async function cleanInvocations(userUrl: string): Promise<string[]> {
  return withClient(userUrl, async (c) => {
    await ensureTable(c);
    const { rows } = await c.query<{ database: string }>(`SELECT database FROM ${RUNS_TABLE} ORDER BY started_at`);
    const dropped: string[] = [];
    for (const { database } of rows) {
      await c.query(`DROP DATABASE IF EXISTS ${c.escapeIdentifier(database)} WITH (FORCE)`);
      await c.query(`DELETE FROM ${RUNS_TABLE} WHERE database = $1`, [database]);
      dropped.push(database);
    }
    return dropped;
  });
}
