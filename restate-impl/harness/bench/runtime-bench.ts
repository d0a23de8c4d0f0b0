/**
 * What `pnpm bench` measures of Restate (the contract: RuntimeBench in @vendor-review/conformance):
 * the review served by an endpoint in this process, naive and hardened, against the plain runner's
 * floor, and what a finished run leaves in the server and in our tables. Overheads are in
 * PostgreSQL commits, the unit every runtime is stated in: Restate's journal is in its server, so
 * the figure says how many of our commits one of its steps costs. Recovery: the service's first
 * retry interval, killed at a step and under load. No bare or replayed configurations yet, no
 * throughput sweep.
 */
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import * as restate from '@restatedev/restate-sdk';
import { baselineConfig, connectionTo, variantReviews, type RuntimeBench } from '@vendor-review/conformance';
import { newRunId, type ReviewRequestInput, type ReviewState, type Variant } from '@vendor-review/pipeline';
import pg from 'pg';
import { attachReview, registerDeployment, sendApproval, submitReview } from '../../src/client.ts';
import { supplyPromiseWithResolvers } from '../../src/node20.ts';
import { setupDatabase } from '../../src/store.ts';
import { reviewWorkflow } from '../../src/workflow.ts';
import { RestateJournal } from '../journal.ts';
import { serviceNameFor } from '../service-name.ts';
import { RESTATE_SERVER } from '../server/spec.ts';

const OURS = ['restate_outbox', 'restate_step_errors'] as const;

export const bench: RuntimeBench = {
  unit: 'commit',

  async inProcess(env) {
    supplyPromiseWithResolvers();
    const server = connectionTo(env.servers, RESTATE_SERVER);
    await setupDatabase(env.databaseUrl);
    const pool = new pg.Pool({ connectionString: env.databaseUrl, max: 4 });
    pool.on('error', () => {}); // the bench stops its PostgreSQL with this pool's clients idle
    const journal = new RestateJournal(server.adminUrl);
    // One service for every run of the bench: the endpoint in this process serves it.
    const service = serviceNameFor(`bench_${process.pid}`);
    const workflow = reviewWorkflow({ ports: env.ports, worker: 'bench', pool, gate: null }, { name: service });
    const started = performance.now();
    // The SDK logs each invocation on stdout, which the bench keeps for its own output (--json).
    const logger: restate.LoggerTransport = (params, message, ...more) => {
      if (params.level === 'error') process.stderr.write(`${[message, ...more].join(' ')}\n`);
    };
    const endpoint = http2.createServer(restate.createEndpointHandler({ services: [workflow], logger }));
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
    const port = (endpoint.address() as AddressInfo).port;
    await registerDeployment(server, `http://${server.endpointHost}:${port}`);
    const workerStartMs = performance.now() - started;

    const run = async (request: ReviewRequestInput, variant: Variant) => {
      const runId = newRunId(`rs-bench-${variant}`);
      await submitReview(server, service, { runId, variant, request });
      // The decision waits in the server until the workflow asks for it.
      await sendApproval(server, service, runId, { approved: true, by: 'bench' });
      const state = (await attachReview(server, service, runId)) as ReviewState;
      return { ok: !state.failure, id: runId };
    };
    return {
      workerStartMs,
      perStep: async ({ request }) => variantReviews('Restate', run)(request),
      storage: {
        modes: ['naive', 'hardened'],
        how: `the server's journal entries, state and promises for the run (bytes as the server counts them), and rows of ${OURS.join(', ')} (pg_column_size)`,
        async measure(mode, request) {
          const r = await run(request, mode as Variant);
          const inv = await journal.invocation(service, r.id);
          const kept = await journal.footprint(service, r.id, inv?.id ?? null);
          const ours = await Promise.all(
            OURS.map(async (table) => {
              const { rows } = await pool.query(
                `SELECT count(*)::int AS n, coalesce(sum(pg_column_size(t.*)), 0)::int AS bytes FROM ${table} t
                 WHERE ${table === 'restate_outbox' ? 'run_id = $1' : "run_key LIKE '%/' || $1"}`,
                [r.id],
              );
              return { table, rows: rows[0].n as number, bytes: rows[0].bytes as number };
            }),
          );
          const tables = [
            {
              table: 'Restate server (journal, state, promises)',
              rows: Object.values(kept.items).reduce((s, n) => s + n, 0),
              bytes: kept.bytes,
            },
            ...ours,
          ];
          return {
            ok: r.ok,
            bytes: tables.reduce((s, t) => s + t.bytes, 0),
            rows: tables.reduce((s, t) => s + t.rows, 0),
            tables,
          };
        },
      },
      async close() {
        endpoint.close();
        await pool.end();
      },
    };
  },

  recovery: {
    knobs: [
      {
        // The server pushes an invocation again only once its endpoint is lost: the first retry's wait
        // and a replacement's start are what a kill costs.
        name: 'retryInitialIntervalMs',
        label: 'first retry interval',
        phrase: 'a first retry interval',
        crashPoint: 'after-model',
        values: { smoke: [500], quick: [100, 500, 2000], full: [100, 250, 500, 1000, 2000, 5000] },
        loaded: { smoke: [], quick: [100, 500], full: [100, 250, 500] },
      },
    ],
    // A live endpoint loses a run when the server pushes its invocation again while it still holds
    // it: a step not yet recorded then runs again, which the world's ledger shows as a repeated call.
    async loaded({ env, started, runs, request }) {
      const [{ WorkerProcess }, { worldClient }] = await Promise.all([
        import('@vendor-review/testbed'),
        import('@vendor-review/world'),
      ]);
      const adapter = started.adapter;
      const handles = await Promise.all(
        Array.from({ length: runs }, async () => {
          const h = await adapter.startRun(request, baselineConfig(adapter, 'hardened'));
          await adapter.approve(h, { approved: true, by: 'bench' });
          return h;
        }),
      );
      const lives = await Promise.all(
        handles.map(
          (h, i) => new WorkerProcess(`L${i}`, adapter.workerSpec(h, { name: `L${i}`, crashPlan: null })).exited,
        ),
      );
      const failed = lives.flatMap((life) =>
        life.exitCode === 0 ? [] : [`endpoint exited ${life.signal ?? life.exitCode}: ${life.logTail.slice(-200)}`],
      );
      const world = worldClient(env.worldUrl);
      let lost = 0;
      for (const h of handles) {
        const calls = (await world.ledger({ runId: h.runId })).filter((e) => e.outcome !== 'deduplicated');
        const again = calls.length - new Set(calls.map((e) => e.opKey)).size;
        if ((await adapter.status(h)).status !== 'completed' || again > 0) lost++;
      }
      return { lost, timedOutAttempts: null, failed };
    },
  },
};
