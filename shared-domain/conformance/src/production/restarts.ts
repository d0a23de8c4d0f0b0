import { newRunId, isTerminal } from '@vendor-review/pipeline';
import { type InfraServer, STORE_SERVER } from '../adapter.ts';
import { type DurableRecord } from '../adapter.ts';
import { oneRequirement } from '../request.ts';
import type { WorkerProcess } from '@vendor-review/testbed';
import { worldClient } from '@vendor-review/world';
import { duplicatedSideEffects, repeatedOperations } from '../evidence.ts';
import { lastWords } from './last-words.ts';
import { POLICIES, stopAll, supervise } from './supervisor.ts';
import { HazardSkipped, type HazardEnv, type HazardOutcome, type HazardRunner, type HazardScenario } from './types.ts';

/**
 * The worst moments for an outage: an external effect has happened (the tracker note, the mail)
 * and is not recorded yet. The worker freezes itself there; the harness stops the server, lets
 * the worker go on while nothing answers (so its next write meets the outage for certain, not by
 * luck of timing), and starts the server again.
 */
const STOPS = ['after-progress:stop', 'after-deliver:stop'];

/**
 * The server to restart, or the reason this row cannot restart it: PostgreSQL for
 * `restart-postgres`, else the runtime's own server (the one its runs keep something in besides
 * PostgreSQL, as its drills say).
 */
function serverToRestart(env: HazardEnv, uses: readonly InfraServer[], scenario: HazardScenario) {
  const { adapter } = env;
  if (scenario.hazard === 'restart-postgres') {
    if (!uses.includes(STORE_SERVER))
      throw new HazardSkipped(
        `${adapter.title} ${scenario.variant} runs keep nothing in PostgreSQL: there is nothing of theirs to restart`,
      );
    const pg = env.infra?.postgres;
    if (!pg) throw new HazardSkipped('the harness was given no handle on PostgreSQL: it has nothing to restart');
    if (!pg.restart)
      throw new HazardSkipped(
        `PostgreSQL is not the harness's own (DATABASE_URL, kind ${pg.kind}): it cannot restart what it does not own`,
      );
    return { title: 'PostgreSQL', restart: pg.restart };
  }
  const id = uses.find((s) => s !== STORE_SERVER);
  if (!id)
    throw new HazardSkipped(
      `${adapter.title} ${scenario.variant} runs keep nothing in a server of their own: there is nothing of theirs to restart`,
    );
  const server = env.infra?.servers?.[id];
  if (!server)
    throw new HazardSkipped(
      `the harness was given no handle on the runtime's server (${id}): it has nothing to restart`,
    );
  if (!server.restart)
    throw new HazardSkipped(`${server.description} is not the harness's own: it cannot restart what it does not own`);
  if (server.forgetsOnRestart)
    throw new HazardSkipped(
      `${server.forgetsOnRestart}: a restart would lose every run (the memory hazard), not ride one out`,
    );
  return { title: server.description, restart: server.restart };
}

/**
 * Retries the durable record shows after `since`: LangGraph's worker taking its lease again (a new
 * fencing token on the checkpoints it writes), Temporal's activity attempts after the first and
 * workflow tasks that failed or timed out.
 */
function retriesInRecord(record: DurableRecord | null, since: number): number {
  if (!record) return 0;
  const after = record.marks.filter((m) => m.at !== null && m.at >= since);
  if (record.kind === 'checkpoints') {
    const tokens = new Set(record.marks.map((m) => m.fencingToken).filter((t) => t !== null && t !== undefined));
    return Math.max(0, tokens.size - 1);
  }
  return after.filter((m) => /\(attempt [2-9]\d*\)|workflow task (failed|timed out)/i.test(m.long)).length;
}

/**
 * A server the run depends on restarts mid-run, twice (see STOPS). A supervisor restarts any
 * worker that dies, as production would. Judged from the ledger (what the world received twice),
 * the durable record (what was retried) and the run's end.
 */
export const restartHazard: HazardRunner = async (env, scenario) => {
  const { adapter } = env;
  const config = { variant: scenario.variant, durability: null };
  const target = serverToRestart(env, adapter.drills?.servers(config) ?? [], scenario);
  const world = worldClient(env.worldUrl);
  const handle = await adapter.startRun(oneRequirement(env.request), config, {
    runId: newRunId(`${scenario.runtime.slice(0, 2)}-restart-${scenario.hazard === 'restart-postgres' ? 'pg' : 'sv'}`),
  });

  const outages: { began: number; downMs: number }[] = [];
  const watching: Promise<void>[] = [];
  // Each worker gets the stops not used yet; one that dies before its stops leaves them to the next.
  const planFor = () => STOPS.slice(outages.length).join(',') || null;
  const restartAround = async (w: WorkerProcess, stops: number) => {
    for (let n = 1; n <= stops; n++) {
      try {
        await w.waitForStop(n, env.boundMs);
      } catch {
        return; // it died or finished first
      }
      // Counted before the worker is let go, so a successor it may need gets only the stops left.
      const outage = { began: Date.now(), downMs: 0 };
      outages.push(outage);
      outage.downMs = (await target.restart({ whileDown: () => w.signal('SIGCONT') })).downMs;
    }
  };
  const started = Date.now();
  const run = await supervise({
    adapter,
    handle,
    spec: (name) => adapter.workerSpec(handle, { name, crashPlan: planFor() }),
    policy: POLICIES.hazard(3),
    boundMs: env.boundMs,
    onWorker: (w) => watching.push(restartAround(w, STOPS.length - outages.length)),
  });
  await stopAll(run.workers);
  await Promise.all(watching);
  if (outages.length === 0)
    throw new Error(`no worker reached ${STOPS.join(' or ')}: the server was never restarted (${run.end.end})`);

  const view = await adapter.inspect(handle).catch(() => run.end.view);
  if (view && !isTerminal(view.status) && view.status !== 'not-found')
    await adapter.abandon?.(handle, 'the restart drill is over').catch(() => {});
  const ledger = await world.ledger({ runId: handle.runId });
  const durable = await adapter.durableRecord(handle).catch(() => null);
  const duplicated = duplicatedSideEffects(ledger, null);
  const repeated = repeatedOperations(ledger, null).filter((r) => r.kind !== 'web');
  const firstOutage = outages[0]!.began;
  // Time lost: from the first outage to the next thing the runtime recorded once the server was back.
  const back = firstOutage + outages[0]!.downMs;
  const nextMark =
    durable?.marks
      .filter((m) => m.at !== null && m.at >= back)
      .reduce<number | null>((min, m) => (min === null || m.at! < min ? m.at! : min), null) ?? null;

  const verdict =
    view?.status !== 'completed'
      ? 'lost-the-run'
      : duplicated.length > 0
        ? 'duplicated-effects'
        : run.restarts > 0
          ? 'restart-needed'
          : 'rode-it-out';
  const dead = run.workers.find((w) => w.life.exitCode !== 0 && w.life.exitedAt !== null && w.life.signal === null);
  const outcome: HazardOutcome = {
    verdict,
    runId: handle.runId,
    note: dead ? `worker ${dead.life.name} died (exit ${dead.life.exitCode}): ${lastWords(dead.output())}` : null,
    ledger,
    durable,
    figures: {
      restarts: outages.length,
      'seconds down': Math.round(outages.reduce((s, o) => s + o.downMs, 0) / 100) / 10,
      'workers that died': run.restarts,
      'retries in the record': retriesInRecord(durable, firstOutage),
      'calls repeated': repeated.reduce((s, r) => s + r.count - r.baselineCount, 0),
      'effects twice': duplicated.length,
      'seconds without progress': nextMark === null ? null : Math.round((nextMark - firstOutage) / 100) / 10,
      'final status': view?.status ?? 'unknown',
      'seconds in all': Math.round((run.end.at - started) / 100) / 10,
    },
  };
  return outcome;
};
