import { newRunId } from '@vendor-review/pipeline';
import { type DurableRecord, type InFlightTask } from '../adapter.ts';
import { worldClient, type LedgerEntry, sumCosts } from '@vendor-review/world';
import { countBy, executed, forkedCheckpoints } from '../evidence.ts';
import { Crew } from './crew.ts';
import { APPROVER, followRun } from '../follow.ts';
import { stepwiseConfig } from './run-config.ts';
import { LineUp } from './line-up.ts';
import type { Figure, HazardRunner } from './types.ts';

/** The two workers that resume the run, and where each freezes so the two are lined up. */
export const RESUMERS = ['A', 'B'] as const;
/** The worker that dies first, on the boundary. */
export const FIRST = 'Z';
/**
 * `boundary:stop`: each has loaded the last checkpoint (FETCH) and written nothing; `after-deliver:stop`:
 * each has sent the mail but not yet recorded it, which would tell a slower one the run is finished.
 */
export const RESUMER_PLAN = 'boundary:stop,after-deliver:stop';
const USD = (n: number) => Math.round(n * 1e6) / 1e6;

/** Writers in the order they first wrote to the record (machinery events left out). */
function writersOf(record: DurableRecord | null, workers: readonly string[]): string[] {
  const seen: string[] = [];
  for (const m of record?.marks ?? []) {
    // Only worker processes: the harness's own client starts and signals the workflow.
    if (m.bookkeeping || !m.writer || !workers.includes(m.writer) || seen.includes(m.writer)) continue;
    seen.push(m.writer);
  }
  return seen;
}

/**
 * What the runtime's in-flight records showed holding the run's work while both resumers were in
 * it: our lease or the runtime's own token, with the resumers they named. A verdict of one writer
 * names no mechanism these do not show.
 */
export function keptOutBy(o: {
  inFlight: readonly InFlightTask[];
  resumers: readonly string[];
  refusals: number;
}): string {
  const held = o.inFlight.filter((t) => t.worker !== null && o.resumers.includes(t.worker));
  const owners = [...new Set(held.map((t) => t.worker))].join(', ');
  if (held.some((t) => t.fence === 'lease'))
    return `our lease’s fencing token: held by ${owners}${o.refusals ? `, ${o.refusals} refused` : ''}`;
  if (held.length) return `the runtime: its records handed the run’s tasks to ${owners}, one task to one worker`;
  if (o.refusals) return `not shown by the records: ${o.refusals} refused by an exit code alone`;
  return o.inFlight.length
    ? 'not shown by the records: they name no worker holding the run'
    : 'not shown by the records: they name nothing in flight';
}

/**
 * The judgement, from the world's ledger and the durable record alone: an operation after the
 * resume point that both resumers ran, or a checkpoint with two children, means both continued
 * the run.
 */
export function judgeTwoWriters(o: {
  ledger: readonly LedgerEntry[];
  durable: DurableRecord | null;
  /** The worker that died first, then the two that resume. */
  first: string;
  resumers: readonly string[];
  refusals: number;
  /** Every task the runtime's in-flight records (adapter.inFlight) showed while the resumers raced. */
  inFlight?: readonly InFlightTask[];
}): { verdict: 'forked' | 'one-writer'; figures: Record<string, Figure> } {
  const ran = executed(o.ledger);
  const byOp = new Map<string, LedgerEntry[]>();
  for (const e of ran) {
    if (!e.worker || !o.resumers.includes(e.worker)) continue;
    byOp.set(e.opKey, [...(byOp.get(e.opKey) ?? []), e]);
  }
  const both = [...byOp.values()].filter((es) => new Set(es.map((e) => e.worker)).size > 1);
  // Unknown (null) when a model's price is (a --model-upstream model missing from the price table).
  const extraCost = sumCosts(both.flatMap((es) => es.slice(1).map((e) => e.costUsd)));
  const delivered = ran.filter((e) => (e.kind === 'mail' || e.kind === 'tracker') && e.outcome === 'ok');
  const notes = countBy(
    delivered.filter((d) => d.kind === 'tracker'),
    (e) => e.opKey,
  );
  const forks = forkedCheckpoints(o.durable).length;
  const writes = o.resumers.map(
    (r) =>
      (o.durable?.marks ?? []).filter((m) => m.writer === r && !m.bookkeeping && m.kind !== 'pending-write').length,
  );
  const verdict = forks > 0 || both.length > 0 ? 'forked' : 'one-writer';
  return {
    verdict,
    figures: {
      'kept to one writer by':
        verdict === 'forked'
          ? 'nothing: both continued'
          : keptOutBy({ inFlight: o.inFlight ?? [], resumers: o.resumers, refusals: o.refusals }),
      writers: writersOf(o.durable, [o.first, ...o.resumers]).join(', ') || null,
      [`writes by ${o.resumers.join(', ')}`]: writes.join(', '),
      forks,
      'operations run by both': both.length,
      'paid model calls repeated': both.filter((es) => es[0]!.kind === 'model').length,
      'extra cost (USD)': extraCost === null ? 'unknown (a model without a price)' : USD(extraCost),
      'mails delivered': delivered.filter((e) => e.kind === 'mail').length,
      'notes stored twice': [...notes.values()].filter((n) => n > 1).length,
      refusals: o.refusals,
    },
  };
}

/**
 * Something the resumers can resume from: a mark the first worker wrote (or one whose writer the
 * record does not name). A runtime may reach the boundary with nothing durable yet, its writes
 * still under way in the background (measured: a LangGraph entrypoint's input checkpoint).
 */
function resumable(record: DurableRecord | null): boolean {
  return (record?.marks ?? []).some((m) => !m.bookkeeping && (m.writer ?? FIRST) === FIRST);
}

/**
 * A first worker dies on the boundary between two steps, at the first boundary where the record
 * holds something to resume from: it freezes there, and is killed once the record shows it, or
 * let go on to the next requirement's boundary (a supervisor that saw it go tells the runtime so,
 * where the runtime listens); then two workers resume the run at the same moment. Both
 * freeze where the plan says and go on only together (see LineUp), so the race happens on every
 * machine. A worker the runtime refuses stays refused: the other one owns the run.
 */
export const twoWritersHazard: HazardRunner = async (env, scenario) => {
  const { adapter } = env;
  const handle = await adapter.startRun(env.request, stepwiseConfig(adapter, scenario.variant), {
    runId: newRunId(`${scenario.runtime.slice(0, 2)}-two-writers`),
  });
  const crew = new Crew(adapter, handle);
  try {
    // One boundary per requirement; the record is read while the worker is frozen, so it cannot move on meanwhile.
    const boundaries = env.request.requirements.length;
    const z = crew.start(FIRST, Array.from({ length: boundaries }, (_, i) => `boundary@${i + 1}:stop`).join(','));
    for (let nth = 1; ; nth++) {
      const first = await followRun({
        adapter,
        handle,
        workers: () => [z],
        boundMs: env.boundMs,
        stopWhen: () => z.stops.length >= nth,
      });
      if (first.end !== 'stopped') {
        const life = await z.kill();
        throw new Error(
          `worker ${FIRST} did not stop at boundary ${nth} of ${boundaries} with something durable before it (${first.end}, ${life.signal ?? `code ${life.exitCode}`}): ${life.logTail.slice(-300)}`,
        );
      }
      if (resumable(await adapter.durableRecord(handle))) break;
      z.signal('SIGCONT');
    }
    const died = await z.kill();
    await adapter.workerGone?.(handle, { name: FIRST, pid: died.pid! });
    // A runtime told that the first worker is gone holds nothing for it: a refusal can only mean the other resumer
    // owns the run, and it stands. Otherwise a refusal may be its hold running out: restart, as a
    // supervisor would, until one of them is in.
    const staleHold = !adapter.workerGone;

    // Read on every look, not only when the line-up asks: what held the run while both were in it.
    const seenInFlight: InFlightTask[] = [];
    const readInFlight = async () => {
      const tasks = (await adapter.inFlight?.(handle).catch(() => [])) ?? [];
      seenInFlight.push(...tasks);
      return tasks;
    };
    const lineUp = new LineUp(() => crew.current(), readInFlight);
    for (const name of RESUMERS) crew.start(name, RESUMER_PLAN);
    // Both are in: inside the run (at a stop), polling its queue, or refused. Until then nobody
    // approves, so an owner that got there first waits at the gate, alive and holding the run.
    const settled = () => crew.current().every((w) => w.stops.length > 0 || w.life.readyAt !== null || !w.alive);
    let approved = false;
    const end = await followRun({
      adapter,
      handle,
      workers: () => crew.all,
      boundMs: env.boundMs,
      pollMs: 100,
      approve: false,
      stopWhen: async (view) => {
        if (staleHold && !crew.current().some((w) => w.stops.length > 0))
          for (const name of RESUMERS) crew.restartIfRefused(name);
        await readInFlight();
        await lineUp.step();
        if (!approved && view.status === 'awaiting-approval' && settled()) {
          await adapter.approve(handle, { approved: true, by: APPROVER });
          approved = true;
        }
        return false;
      },
    });
    // The other may still be frozen at its last stop, or finishing what it started.
    const deadline = Date.now() + env.boundMs;
    while (lineUp.holding() && Date.now() < deadline) {
      await lineUp.step();
      await new Promise((r) => setTimeout(r, 50));
    }
    await crew.finish(env.boundMs);
    const view = await adapter.inspect(handle).catch(() => end.view);
    if (view?.status !== 'completed')
      throw new Error(
        `the run did not complete (${end.end}, status ${view?.status ?? 'unknown'}): ${crew.all.map((w) => `${w.life.name} ${w.life.signal ?? `code ${w.life.exitCode}`}: ${w.life.logTail.slice(-200)}`).join(' | ')}`,
      );
    const ledger = await worldClient(env.worldUrl).ledger({ runId: handle.runId });
    const durable = await adapter.durableRecord(handle);
    const judged = judgeTwoWriters({
      ledger,
      durable,
      first: FIRST,
      resumers: RESUMERS,
      refusals: crew.refusals(),
      inFlight: seenInFlight,
    });
    const figures = { ...judged.figures, ...(handle.durability ? { durability: handle.durability } : {}) };
    return { verdict: judged.verdict, figures, runId: handle.runId, ledger, durable };
  } finally {
    await crew.kill();
  }
};
