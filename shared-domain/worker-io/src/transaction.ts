import pg from 'pg';

/** Runs fn on one pooled client inside a transaction: committed when fn returns, rolled back when it throws. */
export async function inTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/**
 * Runs fn on a connection of its own, closed afterwards: for a question asked rarely (a checker's,
 * once a campaign). `connectTimeoutMs` bounds the connecting where a server may not be there.
 */
export async function withConnection<T>(
  databaseUrl: string,
  fn: (client: pg.Client) => Promise<T>,
  o: { connectTimeoutMs?: number } = {},
): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: o.connectTimeoutMs ?? 0 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}
