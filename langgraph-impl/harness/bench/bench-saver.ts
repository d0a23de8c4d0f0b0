/**
 * node --import tsx harness/bench/bench-saver.ts [--threads 5] [--steps 8]
 *
 * PostgreSQL round trips and commits per graph step of our saver against the stock PostgresSaver:
 * a chain of `steps` nodes over the review channels, durability "sync", run on `threads` threads per
 * saver. Round trips are counted on every pooled client (pool.query included); commits are the
 * server's own count (pg_stat_database.xact_commit of a throwaway database, read from another
 * database once the saver's connections have closed and flushed their statistics).
 * Server: TEST_POSTGRES_URL, else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres.
 */
import { parseArgs } from 'node:util';
import { END, START, StateGraph, type BaseCheckpointSaver } from '@langchain/langgraph';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { STATE_SCHEMA_VERSION } from '@vendor-review/pipeline';
import { freshDatabase } from '@vendor-review/testbed';
import pg from 'pg';
import { ReviewChannels } from '../../src/channels.ts';
import { ReviewSaver } from '../../src/checkpointer.ts';
import { claimLease, fencedPool } from '../../src/lease.ts';
import { createPool } from '../../src/pool.ts';
import { setupDatabase } from '../../src/setup.ts';

const { values: args } = parseArgs({
  options: { threads: { type: 'string', default: '5' }, steps: { type: 'string', default: '8' } },
  strict: true,
});
const THREADS = Number(args.threads);
const STEPS = Number(args.steps);
const SERVER_URL =
  process.env.TEST_POSTGRES_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface Counts {
  /** Sessions opened: each backend's start-up runs a catalog transaction that the server counts as a commit. */
  connections: number;
  roundTrips: number;
  begins: number;
  commits: number;
  fenceChecks: number;
}

const zero = (): Counts => ({ connections: 0, roundTrips: 0, begins: 0, commits: 0, fenceChecks: 0 });

/** A pool whose every client counts what it sends, one round trip per query() call. */
function countingPool(url: string): { pool: pg.Pool; counts: Counts } {
  const counts = zero();
  const pool = createPool(url);
  pool.on('connect', (client) => {
    counts.connections += 1;
    const query = client.query.bind(client) as (...a: unknown[]) => unknown;
    (client as unknown as { query: unknown }).query = (...a: unknown[]) => {
      const text = typeof a[0] === 'string' ? a[0] : ((a[0] as { text?: string })?.text ?? '');
      counts.roundTrips += 1;
      if (/^\s*BEGIN\b/i.test(text)) counts.begins += 1;
      if (/^\s*COMMIT\b/i.test(text)) counts.commits += 1;
      if (/\blg_leases\b/.test(text)) counts.fenceChecks += 1;
      return query(...a);
    };
  });
  return { pool, counts };
}

function chainGraph(checkpointer: BaseCheckpointSaver) {
  const names = Array.from({ length: STEPS }, (_, i) => `S${i + 1}`);
  // Untyped builder: the node names are only known at run time.
  let graph = new StateGraph(ReviewChannels) as unknown as {
    addNode(n: string, f: (s: { progressNotes: Record<string, string> }) => unknown): typeof graph;
    addEdge(a: string, b: string): typeof graph;
    compile(o: { checkpointer: BaseCheckpointSaver }): { invoke(i: unknown, c: unknown): Promise<unknown> };
  };
  for (const name of names) graph = graph.addNode(name, () => ({ progressNotes: { [name]: `${name} done` } }));
  [START, ...names, END].forEach((n, i, all) => i > 0 && (graph = graph.addEdge(all[i - 1]!, n)));
  return graph.compile({ checkpointer });
}

/** Commits the server counted in `db`, once every connection to it has gone (and flushed its counts). */
async function settledCommits(admin: pg.Client, db: string): Promise<number> {
  let last = -1;
  for (let i = 0; i < 100; i += 1) {
    await new Promise((r) => setTimeout(r, 200));
    const { rows } = await admin.query(
      `SELECT (SELECT count(*) FROM pg_stat_activity WHERE datname = $1)::int AS sessions,
              (SELECT xact_commit FROM pg_stat_database WHERE datname = $1)::int AS commits`,
      [db],
    );
    await admin.query('SELECT pg_stat_clear_snapshot()');
    if (rows[0].sessions === 0 && rows[0].commits === last) return last;
    last = rows[0].sessions === 0 ? rows[0].commits : -1;
  }
  throw new Error(`the statistics of ${db} did not settle`);
}

interface Row {
  saver: string;
  steps: number;
  puts: number;
  putWrites: number;
  counts: Counts;
  serverCommits: number;
  readRoundTrips: number;
}

async function measure(
  url: string,
  dbName: string,
  admin: pg.Client,
  label: string,
  make: (pool: pg.Pool) => Promise<{ saver: BaseCheckpointSaver; reader: BaseCheckpointSaver }>,
): Promise<Row> {
  const { pool, counts } = countingPool(url);
  const { saver, reader } = await make(pool);
  const before = await settledCommits(admin, dbName);
  let puts = 0;
  let putWrites = 0;
  let loads = 0; // round trips of the getTuple each invoke starts with: a read, not the step's writes
  const put = saver.put.bind(saver);
  const writes = saver.putWrites.bind(saver);
  const getTuple = saver.getTuple.bind(saver);
  saver.put = (...a) => ((puts += 1), put(...a));
  saver.putWrites = (...a) => ((putWrites += 1), writes(...a));
  let invoking = true;
  saver.getTuple = async (...a) => {
    if (!invoking) return getTuple(...a);
    const at = counts.roundTrips;
    try {
      return await getTuple(...a);
    } finally {
      loads += counts.roundTrips - at;
    }
  };
  const graph = chainGraph(saver);
  const threads = Array.from({ length: THREADS }, (_, i) => `${label}-${i}`);
  for (const thread_id of threads) {
    await graph.invoke(
      { schemaVersion: STATE_SCHEMA_VERSION, runId: thread_id },
      { configurable: { thread_id }, durability: 'sync' },
    );
  }
  invoking = false;
  const written = { ...counts, roundTrips: counts.roundTrips - loads };
  const readsBefore = counts.roundTrips;
  for (const thread_id of threads) await reader.getTuple({ configurable: { thread_id } });
  const readRoundTrips = (counts.roundTrips - readsBefore) / THREADS;
  await pool.end();
  const after = await settledCommits(admin, dbName);
  return {
    saver: label,
    steps: puts,
    puts,
    putWrites,
    counts: written,
    // every read round trip (the invokes' getTuple and ours) is an autocommitted transaction of its own
    serverCommits: after - before - loads - readRoundTrips * THREADS - counts.connections,
    readRoundTrips,
  };
}

async function main() {
  const db = await freshDatabase(SERVER_URL, 'bench_saver');
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  try {
    await setupDatabase(db.url);
    const rows: Row[] = [];
    rows.push(
      await measure(db.url, db.name, admin, 'stock', async (pool) => {
        const s = new PostgresSaver(pool);
        return { saver: s, reader: s };
      }),
    );
    rows.push(
      await measure(db.url, db.name, admin, 'review-plain', async (pool) => ({
        saver: new ReviewSaver(pool, { variant: 'naive', writer: { worker: 'bench' } }),
        reader: new ReviewSaver(pool, { variant: 'hardened' }),
      })),
    );
    rows.push(
      await measure(db.url, db.name, admin, 'review-fenced', async (pool) => {
        const claim = new pg.Pool({ connectionString: db.url, max: 1 });
        const lease = await claimLease(claim, 'bench-lease', 'bench#1', 600_000).finally(() => claim.end());
        const fenced = fencedPool(pool, lease);
        return {
          saver: new ReviewSaver(fenced, { variant: 'naive', writer: { worker: 'bench', fencingToken: lease.token } }),
          reader: new ReviewSaver(fenced, { variant: 'hardened' }),
        };
      }),
    );
    const per = (n: number, d: number) => (d ? (n / d).toFixed(2) : '-');
    const lines = [
      `${THREADS} threads × ${STEPS} nodes, durability sync, PostgreSQL ${(await admin.query('SHOW server_version')).rows[0].server_version}`,
      '| saver | checkpoints (steps) | putWrites | round trips / step | COMMIT sent / step | commits counted by the server / step | fence checks / step | round trips / put+putWrites | getTuple round trips (hardened reader) |',
      '|---|---|---|---|---|---|---|---|---|',
      ...rows.map(
        (r) =>
          `| ${r.saver} | ${r.steps} | ${r.putWrites} | ${per(r.counts.roundTrips, r.steps)} | ${per(r.counts.commits, r.steps)} | ${per(r.serverCommits, r.steps)} | ${per(r.counts.fenceChecks, r.steps)} | ${per(r.counts.roundTrips, r.puts + r.putWrites)} | ${r.readRoundTrips.toFixed(2)} |`,
      ),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await admin.end();
    await db.drop();
  }
}

await main();
