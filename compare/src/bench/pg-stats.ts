import pg from 'pg';

/**
 * Transactions the server committed in one database (pg_stat_database.xact_commit), read from
 * another database once every session in it has gone: a backend hands its counts over when it
 * exits, so with nobody connected the count is complete. A new backend's start-up counts as a
 * commit too, which is part of what a worker costs.
 */
export async function settledCommits(adminUrl: string, database: string, timeoutMs = 30_000): Promise<number> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    let last = -1;
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const { rows } = await admin.query(
        `SELECT (SELECT count(*) FROM pg_stat_activity WHERE datname = $1)::int AS sessions,
                coalesce((SELECT xact_commit FROM pg_stat_database WHERE datname = $1), 0)::bigint AS commits`,
        [database],
      );
      await admin.query('SELECT pg_stat_clear_snapshot()');
      const sessions = Number(rows[0].sessions);
      const commits = Number(rows[0].commits);
      if (sessions === 0 && commits === last) return commits;
      last = sessions === 0 ? commits : -1;
      await new Promise((r) => setTimeout(r, 150));
    }
    throw new Error(`the statistics of ${database} did not settle within ${timeoutMs / 1000} s`);
  } finally {
    await admin.end();
  }
}
