import type {
  DeployDrill,
  Footprint,
  RetentionDrill,
  RunHandle,
  RuntimeAdapter,
  RuntimeDrills,
  ShortTimeoutsDrill,
  WorkerSpec,
} from '@vendor-review/conformance';
import type pg from 'pg';
import { RestateHttpError, type RestateUrls } from '../src/client.ts';
import { DEPLOYMENT_CHECK } from './deployment-check.ts';
import type { RestateHandle } from './handle.ts';
import type { RestateJournal } from './journal.ts';
import { RESTATE_SERVER } from './server/spec.ts';

/** A Restate error as an endpoint printed it: the class name and its message, one line. */
const RESTATE_ERROR = /\b(TerminalError|RestateError)\b:?\s*([^\n]*)/;

/** The bytes a later release's journal codec (an encryption) would have written for the approval. */
export const FOREIGN_APPROVAL = 'ENC1:9f2b7c1e4d';

export interface RestateDrillDeps {
  journal: RestateJournal;
  pool: pg.Pool;
  urls: RestateUrls;
  adapter: RuntimeAdapter<RestateHandle>;
  /** A run's worker registered at another address: last release's deployment. */
  previousWorker(h: RestateHandle, w: { name: string; crashPlan: string | null }): Promise<WorkerSpec>;
  /** A run's worker registered at its own port (no router in front), with `tuned` added to its environment. */
  directWorker(
    h: RestateHandle,
    w: { name: string; crashPlan: string | null },
    tuned: WorkerSpec['env'],
  ): Promise<WorkerSpec>;
}

/**
 * The shorter timeouts a team sets on a service for a faster takeover of a silent endpoint (the
 * SDK's service options `inactivityTimeout` and `abortTimeout`; the server's defaults are a minute
 * and ten), as the endpoint-run reads them.
 */
export const SHORT_TIMEOUTS = { inactivityMs: 2_000, abortMs: 1_000 };
/**
 * The server gives up on a silent attempt later than the two settings add up to (restate-impl/README.md
 * has what was seen), and retries after its policy's first wait: room for both, on a loaded machine.
 */
const GIVES_UP_WITHIN_MS = 12_000;

export function restateDrills(o: RestateDrillDeps): RuntimeDrills<RestateHandle> {
  // Last release is a deployment: Restate pins an invocation to the deployment it started on and
  // replays it only there. The code is today's; what differs across the deploy is the address the
  // run's deployment was registered at, as a team that registers each release at its own address does.
  const deploy: DeployDrill<RestateHandle> = {
    lastRelease: {
      previous: "an endpoint of last release's deployment (registered at an address of its own)",
      previousWorker: (h, opts) => o.previousWorker(h, opts),
      async leftByPrevious(h) {
        const inv = await o.journal.invocation(h.service, h.runId);
        const entries = inv ? (await o.journal.entries(inv.id)).length : 0;
        return `an invocation ${inv?.status ?? 'missing'}, pinned to deployment ${inv?.pinned_deployment_id ?? '?'}, ${entries} journal entries`;
      },
      nextWorker: async (h, { name }) => o.adapter.workerSpec(h, { name, crashPlan: null }),
    },
    async foreignFormat(h) {
      // The approval as a client with a later release's codec would send it: not JSON.
      const res = await fetch(`${o.urls.ingressUrl}/${h.service}/${encodeURIComponent(h.runId)}/approve/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': `approval-${h.runId}` },
        body: FOREIGN_APPROVAL,
      });
      if (!res.ok) throw new RestateHttpError(res.status, 'sending the foreign approval', await res.text());
      return `an approval sent to the workflow's approve handler as ${FOREIGN_APPROVAL.length} bytes a later release's codec wrote (not JSON)`;
    },
  };

  const retention: RetentionDrill<RestateHandle> = {
    how: 'Restate keeps a finished workflow (its journal, state and promises) for its completion retention (a day by default) and then removes it itself; sooner, the admin API purges a completed invocation: the finished runs before the window, then our outbox rows, error counts and run rows',
    async footprint(h): Promise<Footprint> {
      const inv = await o.journal.invocation(h.service, h.runId);
      const server = await o.journal.footprint(h.service, h.runId, inv?.id ?? null);
      const { rows } = await o.pool.query(
        `SELECT (SELECT count(*) FROM restate_outbox WHERE run_id = $1) AS outbox,
                (SELECT count(*) FROM restate_step_errors WHERE run_key LIKE $2) AS errors,
                (SELECT count(*) FROM restate_runs WHERE run_id = $1) AS runs`,
        [h.runId, `%/${h.runId}`],
      );
      const r = rows[0]!;
      return {
        items: {
          ...server.items,
          'outbox rows': Number(r.outbox),
          'error counts': Number(r.errors),
          'run rows': Number(r.runs),
        },
        bytes: server.bytes,
      };
    },
    async purge({ olderThanMs, handles }) {
      const cutoff = Date.now() - olderThanMs;
      const removed: string[] = [];
      for (const h of handles) {
        const inv = await o.journal.invocation(h.service, h.runId);
        const finishedAt = inv?.completed_at ? Date.parse(inv.completed_at) : null;
        if (!inv || inv.status !== 'completed' || finishedAt === null || finishedAt > cutoff) continue;
        const res = await fetch(`${o.urls.adminUrl}/invocations/${inv.id}/purge`, { method: 'PATCH' });
        if (!res.ok) throw new RestateHttpError(res.status, `purging ${inv.id}`, await res.text());
        removed.push(h.runId);
      }
      if (removed.length === 0) return { removed };
      await o.pool.query(`DELETE FROM restate_outbox WHERE run_id = ANY($1::text[])`, [removed]);
      await o.pool.query(`DELETE FROM restate_step_errors WHERE split_part(run_key, '/', 2) = ANY($1::text[])`, [
        removed,
      ]);
      await o.pool.query(`DELETE FROM restate_runs WHERE run_id = ANY($1::text[])`, [removed]);
      return { removed };
    },
  };

  const shortTimeouts: ShortTimeoutsDrill<RestateHandle> = {
    settings: `the service's inactivityTimeout ${SHORT_TIMEOUTS.inactivityMs / 1000} s and abortTimeout ${SHORT_TIMEOUTS.abortMs / 1000} s (restate.workflow options); its endpoint registered at its own port`,
    movesWithinMs: GIVES_UP_WITHIN_MS,
    worker: (h, w) =>
      o.directWorker(h, w, {
        INACTIVITY_TIMEOUT_MS: String(SHORT_TIMEOUTS.inactivityMs),
        ABORT_TIMEOUT_MS: String(SHORT_TIMEOUTS.abortMs),
      }),
    async attempts(h) {
      const inv = await o.journal.invocation(h.service, h.runId);
      if (!inv) return { started: 0, ended: [], lastSentTo: null };
      const deployment = inv.last_attempt_deployment_id ?? null;
      const address = deployment ? await o.journal.deploymentAddress(deployment) : null;
      return {
        // Counted from the first attempt on the partition's current leader; a completed invocation keeps none.
        started: Number(inv.retry_count ?? 0),
        ended: await o.journal.failedAttempts(inv.id),
        lastSentTo: deployment ? `deployment ${deployment}${address ? ` at ${address}` : ''}` : null,
      };
    },
    async recordedResult(h, step) {
      const inv = await o.journal.invocation(h.service, h.runId);
      return inv ? o.journal.runResult(inv.id, step) : null;
    },
  };

  return {
    // The journal and the workflow's state are in the server; hardened's outbox and counts in PostgreSQL.
    servers: (config) => (config.variant === 'hardened' ? [RESTATE_SERVER.id, 'postgres'] : [RESTATE_SERVER.id]),
    async explain(_h: RunHandle, endings) {
      for (const e of [...endings].reverse()) {
        const where = `worker ${e.name} (${e.signal ?? `exit code ${e.exitCode}`})`;
        const checked = DEPLOYMENT_CHECK.exec(e.output);
        if (checked) return { where, error: checked[0], kind: 'deployment-mismatch' };
        const m = RESTATE_ERROR.exec(e.output);
        if (m) return { where, error: `${m[1]}: ${m[2]}`.slice(0, 300), kind: m[1]! };
      }
      return null;
    },
    deploy,
    retention,
    shortTimeouts,
  };
}
