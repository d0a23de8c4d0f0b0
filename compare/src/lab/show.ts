import type { RunView } from '@vendor-review/pipeline';
import type { DurableMark } from '@vendor-review/conformance';
import {
  computeEvidence,
  executed,
  operationLabel,
  type CellObservation,
  type Evidence,
} from '@vendor-review/conformance';
import type { WorkerLife } from '@vendor-review/testbed';
import { money, repeatedSummary, seconds, wrap, TABLE_WIDTH } from '../table.ts';
import { handleLabel } from './config.ts';
import { baselineFor, observeLabRun } from './observation.ts';
import { loadRun, type LabRun } from './runs.ts';
import { openRuntime, titleOf } from './runtimes.ts';
import { requireUp } from './state.ts';

/**
 * `pnpm lab show RUN`: the run's status, its durable record (LangGraph checkpoints with step and
 * writer; Temporal history events, with the UI link), the world's ledger as a timeline with the
 * re-executions marked, and the evidence under the titles of the `pnpm compare` table, computed by
 * the same functions against an uncrashed baseline of the same review.
 */
const clock = (t: number) => new Date(t).toTimeString().slice(0, 8);
const at = (t: number, t0: number) => `+${((t - t0) / 1000).toFixed(2)} s`.padStart(10);

function lifeLine(l: WorkerLife, crash: CellObservation['crash']): string {
  const end =
    l.exitedAt === null
      ? 'running'
      : l.signal
        ? `killed by ${l.signal}${crash && l.pid === crash.pid ? '  ← the crash' : ''}`
        : `exited ${l.exitCode}`;
  const ran = l.exitedAt === null ? '' : ` ran ${seconds(l.exitedAt - l.startedAt)},`;
  return `  ${l.name.padEnd(3)} pid ${String(l.pid).padEnd(7)} started ${clock(l.startedAt)},${ran} ${end}`;
}

function markLine(m: DurableMark, t0: number, writes: DurableMark[], workers: Set<string>): string {
  // A writer that is none of the run's workers is a client: the approval sent by `lab approve`.
  const who = m.writer ? (workers.has(m.writer) ? `writer ${m.writer}` : 'a client') : '';
  const token = m.fencingToken !== null && m.fencingToken !== undefined ? ` token ${m.fencingToken}` : '';
  const when = m.at !== null ? at(m.at, t0) : ''.padStart(10);
  // A checkpoint's pending writes: what the tasks after it saved (finished siblings, at a crash).
  const nodes = [...new Set(writes.map((w) => w.step ?? w.short.replace(/^w /, '')))];
  const saved = writes.length ? `+${writes.length} write(s) from ${nodes.join(', ')}` : '';
  return `  ${when}  ${m.short.padEnd(28)} ${`${who}${token}`.padEnd(16)} ${saved}`.trimEnd();
}

function durableSection(obs: CellObservation, t0: number): string[] {
  const record = obs.durableFinal;
  if (!record) return ['durable record: could not be read'];
  const crashAt = obs.crash?.at ?? null;
  const lines: string[] = [];
  let marks = record.marks;
  const writes = marks.filter((m) => m.kind === 'pending-write');
  if (record.kind === 'checkpoints') {
    marks = marks.filter((m) => m.kind === 'checkpoint');
    lines.push(
      `durable record: ${marks.length} ${titleOf(record.runtime)} checkpoints in PostgreSQL, with ${writes.length} pending writes (time, checkpoint and the node before it, writer):`,
    );
  } else if (record.kind === 'history') {
    const shown = marks.filter((m) => !m.bookkeeping);
    lines.push(
      `durable record: ${titleOf(record.runtime)} history of ${marks.length} events (time, event, the worker that wrote it; the ${marks.length - shown.length} workflow-task and scheduling events are in the UI):`,
    );
    if (obs.link) lines.push(`  ${obs.link}`);
    marks = shown;
  } else lines.push(`durable record: ${titleOf(record.runtime)} keeps nothing durable`);
  const killed = `  ${crashAt === null ? '' : at(crashAt, t0)}  ── worker ${crashedName(obs)} killed here ──`;
  const workers = new Set(obs.workers.map((w) => w.name));
  let crashShown = false;
  for (const m of marks) {
    if (crashAt !== null && !crashShown && m.at !== null && m.at > crashAt) {
      lines.push(killed);
      crashShown = true;
    }
    lines.push(
      markLine(
        m,
        t0,
        writes.filter((w) => w.parentId === m.id),
        workers,
      ),
    );
  }
  if (crashAt !== null && !crashShown) lines.push(killed);
  return lines;
}

function crashedName(obs: CellObservation): string {
  return obs.workers.find((w) => w.pid === obs.crash?.pid)?.name ?? '?';
}

function ledgerSection(obs: CellObservation, e: Evidence, t0: number): string[] {
  const repeats = new Set(e.repeatSeqs);
  const ran = obs.ledger;
  const model = executed(ran).filter((x) => x.kind === 'model');
  // A model missing from the price list has no price: the total is then unknown, never understated.
  const cost = executed(ran).reduce<number | null>(
    (s, x) => (s === null || x.costUsd === null ? null : s + x.costUsd),
    0,
  );
  const lines = [
    `the world's ledger: ${ran.length} call(s), ${model.length} model call(s), ${money(cost)} (↻ = a re-execution beyond the baseline, as pnpm compare counts it):`,
  ];
  const events: { t: number; text: string }[] = ran.map((x) => {
    const tokens = x.kind === 'model' ? `${x.promptTokens}+${x.completionTokens} tok ${money(x.costUsd)}` : '';
    const text = `  ${at(x.at, t0)}  ${(x.worker ?? '?').padEnd(3)} ${(x.step ?? '?').padEnd(18)} ${operationLabel(x).padEnd(24)} ${tokens.padEnd(20)} ${x.outcome}${repeats.has(x.seq) ? '  ↻ repeated' : ''}`;
    return { t: x.at, text: text.trimEnd() };
  });
  if (obs.crash)
    events.push({
      t: obs.crash.at,
      text: `  ${at(obs.crash.at, t0)}  ── worker ${crashedName(obs)} killed (${obs.crash.detail}) ──`,
    });
  for (const a of obs.approvals)
    events.push({
      t: a.at,
      text: `  ${at(a.at, t0)}  ── ${a.decision.approved ? 'approved' : 'rejected'} by ${a.decision.by}${a.aliveWorker ? ` while worker ${a.aliveWorker} was alive` : ' while no worker was alive'} ──`,
    });
  // Stable: a crash or approval lands after the calls recorded at the same millisecond.
  return [
    ...lines,
    ...events
      .map((x, i) => ({ ...x, i }))
      .sort((a, b) => a.t - b.t || a.i - b.i)
      .map((x) => x.text),
  ];
}

function evidenceSection(obs: CellObservation, e: Evidence, baseline: CellObservation, view: RunView): string[] {
  const judged = baseline.status === 'completed';
  const lines = [
    judged
      ? `as a pnpm compare cell, against the uncrashed run ${baseline.runId} of the same review:`
      : `as a pnpm compare cell: its baseline did not complete (${baseline.status}${baseline.note ? `: ${baseline.note}` : ''}), so repeats are judged as "seen more than once":`,
  ];
  const row = (title: string, value: string) => lines.push(...wrap(value, TABLE_WIDTH, `  ${title.padEnd(20)} `));
  const extra =
    e.extraModelCalls < 0 ? '—' : `${e.extraModelCalls > 0 ? '+' : ''}${e.extraModelCalls} ${money(e.extraCostUsd)}`;
  row('last durable', obs.crash ? `${e.lastDurableShort} — ${e.lastDurable}` : e.lastDurable);
  row('first after resume', obs.crash ? `${e.firstAfterResumeShort} — ${e.firstAfterResume}` : e.firstAfterResume);
  row(
    'repeated',
    `${repeatedSummary(e)}${e.repeated.length ? ` — ${e.repeated.map((r) => `${r.kind} ${r.subject} (${r.step ?? '?'}) ${r.count}× for ${r.baselineCount}×`).join('; ')}` : ''}`,
  );
  row('extra model', `${extra}${e.extraModelCalls > 0 ? ` (${e.extraTokens} tokens)` : ''}`);
  row('state', e.stateDuplicated ? `yes — ${e.stateDuplicatedWhy.join('; ')}` : 'no');
  row('effect', e.sideEffectDuplicated ? `yes — ${e.sideEffectDuplicatedWhy.join('; ')}` : 'no');
  // The same measure as compare's, but here the restart was a person's: their pause is part of it.
  row(
    'recovery',
    `${seconds(e.recoveryMs)}${e.recoveryMs !== null ? ' (from the kill to the next worker’s first progress, your restart included)' : ''}`,
  );
  row(
    '=base',
    e.finalMatchesBaseline ? 'yes' : `no${view.status === 'completed' ? '' : ` (the run is ${view.status})`}`,
  );
  lines.push(
    ...wrap(
      "state / effect: duplicated in the run's state / in the outside world · recovery: crash → first progress by worker B · =base: final review equals the uncrashed baseline",
      TABLE_WIDTH,
      '  ',
    ),
  );
  return lines;
}

function header(run: LabRun, view: RunView, obs: CellObservation): string[] {
  const h = run.handle;
  const config = handleLabel(h);
  const decision = obs.approvals.at(-1)?.decision;
  return [
    `run ${h.runId} · ${titleOf(run.runtime)} ${config} · ${run.request.vendor.name}, ${run.request.requirements.length} requirement(s) (${run.source})`,
    `status: ${view.status}${decision ? ` · ${decision.approved ? 'approved' : 'rejected'} by ${decision.by}` : ''}${view.reason ? ` · ${view.reason}` : ''}`,
  ];
}

export async function showLabRun(dir: string, runId: string | undefined, o: { json: boolean }): Promise<number> {
  const state = requireUp(dir);
  const run = loadRun(dir, runId);
  const { adapter } = await openRuntime(state, run.runtime);
  try {
    const { obs, view } = await observeLabRun(dir, run, adapter, state.worldUrl);
    if (!obs.workers.length && !o.json) {
      // Nothing ran, so nothing can have repeated: no need for a whole baseline run yet.
      process.stdout.write(
        `${header(run, view, obs).join('\n')}\nno worker has run it yet: pnpm lab worker ${run.runtime}\n`,
      );
      return 0;
    }
    const baseline = await baselineFor(dir, run, adapter, state.worldUrl, (l) => process.stderr.write(`${l}\n`));
    const evidence = computeEvidence(obs, baseline.status === 'completed' ? baseline : null);
    if (o.json) {
      const out = {
        runId: run.handle.runId,
        runtime: run.runtime,
        config: run.handle.config,
        durability: run.handle.durability,
        status: view.status,
        link: run.handle.link,
        workers: obs.workers,
        crash: obs.crash,
        approvals: obs.approvals,
        durable: obs.durableFinal,
        durableAtCrash: obs.durableAtCrash,
        ledger: obs.ledger,
        baseline: { runId: baseline.runId, status: baseline.status, note: baseline.note, ledger: baseline.ledger },
        evidence,
      };
      process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
      return 0;
    }
    // Times count from the first thing recorded (Temporal's start event precedes the lab's own note of the run).
    const t0 = Math.min(
      obs.startedAt,
      ...(obs.durableFinal?.marks ?? []).flatMap((m) => (m.at !== null ? [m.at] : [])),
      ...obs.ledger.map((e) => e.at),
    );
    const lines = [
      ...header(run, view, obs),
      '',
      `workers (each process a lab worker started for this run; times from the start of the run, ${clock(t0)}):`,
      ...(obs.workers.length
        ? obs.workers.map((l) => lifeLine(l, obs.crash))
        : ['  none yet: pnpm lab worker ' + run.runtime]),
      '',
      ...durableSection(obs, t0),
      '',
      ...ledgerSection(obs, evidence, t0),
      '',
      ...evidenceSection(obs, evidence, baseline, view),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  } finally {
    await adapter.close();
  }
}
