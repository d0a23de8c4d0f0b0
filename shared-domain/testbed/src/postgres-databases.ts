import { randomBytes } from 'node:crypto';
import { withConnection } from '@vendor-review/worker-io';
import type pg from 'pg';

/** The URL with its password replaced by `***`, for messages and logs. */
export function maskDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
  }
}

/** The same server and credentials, another database. */
export function databaseUrl(serverUrl: string, database: string): string {
  const parsed = new URL(serverUrl);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}

const withClient = <T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> =>
  withConnection(url, fn, { connectTimeoutMs: 5_000 });

const DUPLICATE_DATABASE = '42P04';

/** Creates `name` on the server behind `url` unless it exists; returns the URL of that database. */
export async function createDatabase(url: string, name: string): Promise<string> {
  await withClient(url, async (client) => {
    try {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
    } catch (err) {
      if ((err as { code?: string }).code !== DUPLICATE_DATABASE) throw err;
    }
  });
  return databaseUrl(url, name);
}

const SESSIONS_LEAVE_MS = 2000;

export interface FreshDatabase {
  url: string;
  name: string;
  /**
   * Drops the database, disconnecting whoever is still in it: after at most SESSIONS_LEAVE_MS for
   * sessions already closing (a pool's end() resolves before its sockets close, and a session
   * terminated then errors in a client nobody listens to any more).
   */
  drop(): Promise<void>;
}

/**
 * A new, uniquely named, empty database on the server behind `serverUrl`, so concurrent test
 * files and repeated runs never see each other's tables.
 */
export async function freshDatabase(serverUrl: string, prefix = 'test'): Promise<FreshDatabase> {
  const safePrefix =
    prefix
      .toLowerCase()
      .replace(/[^a-z0-9_]+/g, '_')
      .slice(0, 30) || 'test';
  const name = `${safePrefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`));
  let dropped = false;
  return {
    url: databaseUrl(serverUrl, name),
    name,
    async drop() {
      if (dropped) return;
      dropped = true;
      await withClient(serverUrl, async (client) => {
        for (const until = Date.now() + SESSIONS_LEAVE_MS; Date.now() < until;) {
          const { rows } = await client.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
            [name],
          );
          if (rows[0]!.n === 0) break;
          await new Promise((r) => setTimeout(r, 50));
        }
        await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
      });
    },
  };
}
