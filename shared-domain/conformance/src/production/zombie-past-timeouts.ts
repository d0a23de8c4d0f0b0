import { sleep } from '@vendor-review/worker-io';
import { newRunId } from '@vendor-review/pipeline';
import { worldClient, type LedgerEntry } from '@vendor-review/world';
import type { AttemptsRecord } from '../adapter.ts';
import { APPROVER } from '../follow.ts';
import { Crew } from './crew.ts';
import { stepwiseConfig } from './run-config.ts';
import { HazardSkipped, type HazardRunner } from './types.ts';
import { FREEZE_AT, freezeWorker, wakeAndFollow, ZOMBIE } from './zombie.ts';

/** How often the runtime's record is read while the worker sleeps: its retry is what wakes it. */
const LOOK_MS = 200;

const secs = (ms: number) => `${Math.round(ms / 100) / 10} s`;
const sends = (ledger: readonly LedgerEntry[]) =>
  ledger.filter((e) => e.kind === 'mail' && (e.outcome === 'ok' || e.outcome === 'deduplicated'));

/**
 * The zombie rows freeze a worker for a fixed pause; a runtime whose timeouts outlast it never
 * moves the run, and those rows hold only for that pause. Here the worker is started with the
 * shorter timeouts a team sets for a faster takeover (the runtime's drill), reached directly (no
 * load balancer to pick another process), with no second worker: it freezes right after its
 * mail's send and sleeps until the runtime's own record shows it gave up on the frozen attempt and
 * started the next one (at most twice as long as the drill says that takes), then wakes. What the
 * runtime did is read from its record (the attempts it started and ended, why, where the retry
 * went); what went out, from the world's ledger and the customer's mailbox; which send the record
 * kept, from the result it holds for the mail's step.
 */
export const zombiePastTimeoutsHazard: HazardRunner = async (env, scenario) => {
  const { adapter } = env;
  const drill = adapter.drills?.shortTimeouts;
  if (!drill) throw new HazardSkipped(`${adapter.title} has no drill that shortens its takeover timeouts`);
  const world = worldClient(env.worldUrl);
  const handle = await adapter.startRun(env.request, stepwiseConfig(adapter, scenario.variant), {
    runId: newRunId(`${scenario.runtime.slice(0, 2)}-zombie-late`),
  });
  const { runId } = handle;
  const crew = new Crew(adapter, handle);
  try {
    await adapter.approve(handle, { approved: true, by: APPROVER });
    const spec = await drill.worker(handle, { name: ZOMBIE, crashPlan: FREEZE_AT.mail.plan });
    const { a, stop } = await freezeWorker({ env, handle, crew, place: 'mail', spec });
    const atFreeze = await drill.attempts(handle);
    let seen: AttemptsRecord = atFreeze;
    const look = async () => {
      const now = await drill.attempts(handle).catch(() => null);
      // Once the run has ended its record may keep less: what was seen last stands.
      if (now && now.ended.length >= seen.ended.length && now.started >= seen.started) seen = now;
      return seen;
    };
    // Asleep until the runtime has given up on the frozen attempt and sent the next one somewhere.
    const retried = (r: AttemptsRecord) => r.ended.length > atFreeze.ended.length && r.started > atFreeze.started;
    const wakeBy = stop.at + 2 * drill.movesWithinMs;
    while (Date.now() < wakeBy && !retried(await look())) await sleep(LOOK_MS);
    const whileFrozen = seen;
    const wokeAt = Date.now();
    const pauseMs = wokeAt - stop.at;
    const { seqAtWake, end } = await wakeAndFollow({ env, handle, crew, a, onPoll: async () => void (await look()) });
    await crew.finish(env.boundMs);
    if (end.view?.status !== 'completed')
      throw new Error(
        `the run did not complete (${end.end}, status ${end.view?.status ?? 'unknown'}): ${a.output().slice(-300)}`,
      );

    const ledger = await world.ledger({ runId });
    const mails = await world.outbox(runId);
    const durable = await adapter.durableRecord(handle);
    const recorded = (await drill.recordedResult(handle, 'DELIVER')) ?? '';
    const kept = mails.findIndex((m) => recorded.includes(m.id));
    const givenUp = whileFrozen.ended.slice(atFreeze.ended.length);
    const moved = retried(whileFrozen);
    const all = sends(ledger);
    const verdict = !moved
      ? 'not-moved'
      : mails.length > 1
        ? 'sent-twice'
        : all.length > 1
          ? 'collapsed-by-key'
          : 'sent-once';
    const exit = a.life.exitCode !== null ? `code ${a.life.exitCode}` : `signal ${a.life.signal}`;
    return {
      verdict,
      runId,
      ledger,
      durable,
      figures: {
        settings: drill.settings,
        'frozen for': secs(pauseMs),
        'attempts started while it slept': whileFrozen.started - atFreeze.started,
        'the runtime gave up on the frozen attempt': givenUp[0]
          ? `${secs(givenUp[0].at - stop.at)} after the freeze (${givenUp[0].why})`
          : 'never',
        'attempts given up on in all': seen.ended.length,
        'the retry went to': moved ? (whileFrozen.lastSentTo ?? 'the record does not say') : 'no retry',
        'mail sends': `${all.length} (${all.map((e) => `${e.seq > seqAtWake ? 'after waking' : 'before the freeze'} ${e.outcome}`).join(', ')})`,
        'mails the customer received': mails.length,
        'the step result the record kept':
          kept < 0
            ? 'none of the mails’ ids'
            : `mail ${kept + 1} of ${mails.length}, ${mails[kept]!.at < wokeAt ? 'sent before the freeze' : 'sent after waking'}`,
        'results of the mail step recorded': durable?.marks.filter((m) => m.step === 'DELIVER').length ?? 0,
        'worker exit': exit,
      },
    };
  } finally {
    await crew.kill();
  }
};
