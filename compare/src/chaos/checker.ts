import { retryRuleFor, stepKindOf, type Variant } from '@vendor-review/pipeline';
import {
  workerNameOf,
  type DurableRecord,
  executed,
  forkedCheckpoints,
  ownErrorsOfStep,
  repeatedOperations,
  repeatSeqs,
  safeDigest,
} from '@vendor-review/conformance';
import { sumCosts, type LedgerEntry } from '@vendor-review/world';
import { summarize, type Summary } from '../bench/stats.ts';
import type { RunEvidence } from './run-evidence.ts';

/**
 * The checker: a pure judgement of every run from its evidence (run-evidence.ts), after the campaign has
 * quiesced. It trusts only the outside: what the receivers stored, what the world's ledger says was
 * asked and billed, and what the runtimes' durable records say was accepted from whom. What a worker
 * printed, and what the harness itself did, play no part in a verdict.
 */
export const VIOLATION_KINDS = [
  'stuck',
  'duplicate-mail',
  'duplicate-note',
  'late-write',
  'late-completion',
  'mail-missing',
  'mail-of-failed-run',
  'review-differs',
  'outbox-unsent',
  'false-dead-letter',
] as const;
export type ViolationKind = (typeof VIOLATION_KINDS)[number];

/** The two the table counts on their own; the rest are "other violations". */
export const DUPLICATE_KINDS: readonly ViolationKind[] = ['duplicate-mail', 'duplicate-note'];
export const LATE_KINDS: readonly ViolationKind[] = ['late-write', 'late-completion'];
/** Counted in a column of its own too: a dead letter for a lost machine, not for the step's errors. */
export const FALSE_DEAD_LETTER_KINDS: readonly ViolationKind[] = ['false-dead-letter'];

export interface Violation {
  runId: string;
  kind: ViolationKind;
  /** How many accepted effects or writes it stands for (a third mail is two duplicates). */
  count: number;
  detail: string;
}

export interface CheckedRun {
  runId: string;
  pool: string;
  runtime: string;
  variant: Variant;
  /** Epoch ms: when the run was started, and when the campaign saw it end (null: it never did). */
  startedAt: number;
  endedAt: number | null;
  /** How long it waited at the gate for its approval (left out of its time to completion). */
  waitedMs?: number;
  evidence: RunEvidence;
}

/** The uncrashed run of the same runtime, variant and vendor: its review and what it paid for. */
export interface Baseline {
  digest: string | null;
  ledger: readonly LedgerEntry[];
}

export type RunEnd = 'completed' | 'failed' | 'stuck';

export interface RunVerdict {
  runId: string;
  end: RunEnd;
  violations: Violation[];
  /** Dollars paid for model calls the uncrashed run did not need (null: a price unknown). */
  extraSpendUsd: number | null;
  /** Start to completion, completed runs only, the wait for the approval left out. */
  durationMs: number | null;
  /** Requests the world answered with an injected fault (slow answers included). */
  worldFaults: number;
  /** Why a failed run failed, as its dead letter or the runtime says. */
  failure: string | null;
}

function endOf(run: CheckedRun): RunEnd {
  const status = run.evidence.final?.status;
  if (status === 'completed' || status === 'failed') return status;
  return 'stuck';
}

/**
 * Writes the durable record accepted from a writer that had lost the right to write:
 * - a checkpoint chain that forks (two checkpoints with one parent: two writers went on from it);
 * - a checkpoint written, in commit order, under a fencing token older than one already used;
 * - a task closed (completed, failed) by another worker than the one the runtime handed the attempt to.
 */
export function lateWrites(durable: DurableRecord | null, provenance: RunEvidence['provenance']): string[] {
  const why: string[] = [];
  for (const parent of forkedCheckpoints(durable))
    why.push(`checkpoint ${parent} has two children: two writers went on from it`);
  let newest: { token: number; writer: string | null } | null = null;
  for (const p of provenance ?? []) {
    if (p.token === null) continue;
    if (newest && p.token < newest.token)
      why.push(
        `checkpoint ${p.checkpointId} written by ${p.writer ?? '?'} with fencing token ${p.token} after token ${newest.token} (${newest.writer ?? '?'}) had written`,
      );
    if (!newest || p.token > newest.token) newest = { token: p.token, writer: p.writer };
  }
  const byId = new Map((durable?.marks ?? []).map((m) => [m.id, m]));
  for (const m of durable?.marks ?? []) {
    if (m.kind !== 'event' || !m.parentId || !m.writer) continue;
    const start = byId.get(m.parentId);
    if (start?.writer && start.writer !== m.writer)
      why.push(`${m.long} written by ${m.writer}, but the runtime had handed that attempt to ${start.writer}`);
  }
  return why;
}

/**
 * The run's final status written by a worker that no longer held the run (LangGraph): someone else
 * had claimed the lease before the status was written. A lease claimed after the run had ended
 * (a worker sent to a run that was finishing) does not make that ending late.
 */
export function lateCompletion(completion: RunEvidence['completion']): string | null {
  if (!completion?.by || !completion.leaseOwner) return null;
  if (completion.status !== 'completed' && completion.status !== 'failed') return null;
  const owner = workerNameOf(completion.leaseOwner);
  if (owner === completion.by) return null;
  const { finishedAt, leaseClaimedAt } = completion;
  if (finishedAt !== null && leaseClaimedAt !== null && finishedAt < leaseClaimedAt) return null;
  return `status ${completion.status} written by ${completion.by}, while the lease was ${owner}'s (fencing token ${completion.leaseToken})`;
}

/** Dollars of the model calls beyond what the baseline made of the same operation. */
export function extraSpend(ledger: readonly LedgerEntry[], baseline: readonly LedgerEntry[] | null): number | null {
  const repeated = repeatedOperations(ledger, baseline ?? null).filter((r) => r.kind === 'model');
  const seqs = new Set(repeatSeqs(ledger, repeated));
  return sumCosts(executed(ledger).flatMap((e) => (seqs.has(e.seq) ? [e.costUsd] : [])));
}

/**
 * A hardened run that ended in the dead letter although its step had not met the rule's cap of
 * its own errors (domain retry-rule.ts): a dead letter for a lost machine. Judged from the world's
 * ledger (ownErrorsOfStep: the failed requests of the dead-lettered step, for this run), never
 * from the count the worker wrote into the dead letter. A permanent error is a full reason after one.
 */
export function falseDeadLetter(run: Pick<CheckedRun, 'variant' | 'evidence'>): string | null {
  const failure = run.evidence.final?.status === 'failed' ? run.evidence.final.state?.failure : undefined;
  if (run.variant !== 'hardened' || !failure) return null;
  let kind;
  try {
    kind = stepKindOf(failure.step);
  } catch {
    return null; // not a working step (a dead letter of the harness's own making): no rule to hold it to
  }
  const cap = retryRuleFor(kind).maxAttempts;
  const { count: own, permanent } = ownErrorsOfStep(run.evidence.ledger, failure.step);
  if (permanent || own >= cap) return null;
  return `dead-lettered at ${failure.step} after ${own} failed request(s) of that step in the ledger, below the cap of ${cap} (the dead letter says ${failure.attempts}: ${failure.error.slice(0, 120)})`;
}

function failureOf(evidence: RunEvidence): string {
  const f = evidence.final?.state?.failure;
  return (
    f ? `${f.step} after ${f.attempts} attempt(s): ${f.error}` : (evidence.final?.reason ?? 'no reason recorded')
  ).slice(0, 300);
}

export function checkRun(run: CheckedRun, baseline: Baseline | null): RunVerdict {
  const { evidence } = run;
  const end = endOf(run);
  const v: Violation[] = [];
  const add = (kind: ViolationKind, detail: string, count = 1) => v.push({ runId: run.runId, kind, count, detail });

  if (end === 'stuck')
    add(
      'stuck',
      `still ${evidence.final?.status ?? 'unreadable'} after the campaign quiesced${evidence.unreadable ? ` (${evidence.unreadable})` : ''}`,
    );

  const mails = evidence.mails.length;
  if (mails > 1) add('duplicate-mail', `the mailer stored ${mails} mails for this run`, mails - 1);
  if (end === 'completed' && evidence.final?.state?.approval?.approved !== false && mails === 0)
    add(
      'mail-missing',
      `completed, approved, and the mailer has no mail${evidence.outbox.length ? ` (outbox: ${evidence.outbox.map((r) => `${r.status} after ${r.attempts} send(s)${r.lastError ? `: ${r.lastError}` : ''}`).join('; ')})` : ''}`,
    );
  if (end === 'failed' && mails > 0)
    add('mail-of-failed-run', `the run ended failed, but the mailer stored ${mails} mail(s)`);

  const notesPer = new Map<string, number>();
  for (const n of evidence.notes) {
    const req = typeof n.requirementId === 'string' ? n.requirementId : '(none)';
    notesPer.set(req, (notesPer.get(req) ?? 0) + 1);
  }
  for (const [req, n] of notesPer)
    if (n > 1) add('duplicate-note', `the tracker stored ${n} notes for requirement ${req}`, n - 1);

  for (const why of lateWrites(evidence.durable, evidence.provenance)) add('late-write', why);
  const late = lateCompletion(evidence.completion);
  if (late) add('late-completion', late);

  if (end === 'completed' && baseline?.digest) {
    const digest = safeDigest(evidence.final?.state ?? null);
    if (digest !== baseline.digest)
      add(
        'review-differs',
        digest ? `review ${digest}, the uncrashed run's ${baseline.digest}` : 'the final review cannot be read',
      );
  }

  const unsent = evidence.outbox.filter((r) => r.status === 'pending');
  if (unsent.length) add('outbox-unsent', `${unsent.length} outbox row(s) still pending`, unsent.length);

  const falseDead = falseDeadLetter(run);
  if (falseDead) add('false-dead-letter', falseDead);

  const done = end === 'completed' && run.endedAt !== null;
  return {
    runId: run.runId,
    end,
    violations: v,
    extraSpendUsd: extraSpend(evidence.ledger, baseline?.ledger ?? null),
    durationMs: done ? run.endedAt! - run.startedAt - (run.waitedMs ?? 0) : null,
    worldFaults: evidence.ledger.filter((e) => e.fault !== undefined).length,
    failure: end === 'failed' ? failureOf(evidence) : null,
  };
}

/** Strikes and crash points that reached a pool, by kind (the table's "faults injected"). */
export interface FaultCounts {
  kill: number;
  'crash-point': number;
  pause: number;
  'postgres-restart': number;
  'server-restart': number;
  'world-fault': number;
  'approve-while-down': number;
  partition: number;
}

export interface PoolRow {
  pool: string;
  runtime: string;
  variant: Variant;
  runs: number;
  faults: FaultCounts;
  completed: number;
  /** Ended failed: dead-lettered (hardened) or failed on the error (naive). */
  deadLettered: number;
  stuck: number;
  duplicateEffects: number;
  lateWrites: number;
  /** Hardened runs dead-lettered below the cap of their step's own errors (falseDeadLetter). */
  falseDeadLetters: number;
  otherViolations: number;
  extraSpendUsd: number | null;
  /** Start to completion of the completed runs, their wait for the approval left out. */
  timeToCompletionMs: Summary | null;
  violationsByKind: Partial<Record<ViolationKind, number>>;
}

const sumCount = (vs: readonly Violation[], kinds: readonly ViolationKind[]) =>
  vs.filter((x) => kinds.includes(x.kind)).reduce((n, x) => n + x.count, 0);

export function poolRow(o: {
  pool: string;
  runtime: string;
  variant: Variant;
  verdicts: readonly RunVerdict[];
  faults: Omit<FaultCounts, 'world-fault'>;
}): PoolRow {
  const all = o.verdicts.flatMap((r) => r.violations);
  const byKind: Partial<Record<ViolationKind, number>> = {};
  for (const x of all) byKind[x.kind] = (byKind[x.kind] ?? 0) + x.count;
  const durations = o.verdicts.flatMap((r) => (r.durationMs === null ? [] : [r.durationMs]));
  return {
    pool: o.pool,
    runtime: o.runtime,
    variant: o.variant,
    runs: o.verdicts.length,
    faults: { ...o.faults, 'world-fault': o.verdicts.reduce((n, r) => n + r.worldFaults, 0) },
    completed: o.verdicts.filter((r) => r.end === 'completed').length,
    deadLettered: o.verdicts.filter((r) => r.end === 'failed').length,
    stuck: o.verdicts.filter((r) => r.end === 'stuck').length,
    duplicateEffects: sumCount(all, DUPLICATE_KINDS),
    lateWrites: sumCount(all, LATE_KINDS),
    falseDeadLetters: sumCount(all, FALSE_DEAD_LETTER_KINDS),
    otherViolations: all.filter(
      (x) =>
        !DUPLICATE_KINDS.includes(x.kind) &&
        !LATE_KINDS.includes(x.kind) &&
        !FALSE_DEAD_LETTER_KINDS.includes(x.kind) &&
        x.kind !== 'stuck',
    ).length,
    extraSpendUsd: sumCosts(o.verdicts.map((r) => r.extraSpendUsd)),
    timeToCompletionMs: summarize(durations),
    violationsByKind: byKind,
  };
}

/**
 * True when nothing a hardened variant must never show happened: no stuck run, no duplicate, no
 * late write, no dead letter for a lost machine (a row from before that count has none).
 */
export function clean(
  row: Pick<PoolRow, 'stuck' | 'duplicateEffects' | 'lateWrites'> & Partial<Pick<PoolRow, 'falseDeadLetters'>>,
): boolean {
  return row.stuck === 0 && row.duplicateEffects === 0 && row.lateWrites === 0 && !row.falseDeadLetters;
}
