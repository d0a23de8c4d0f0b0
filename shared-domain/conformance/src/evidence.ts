import { reviewDigest, type ReviewState } from '@vendor-review/pipeline';
import { type DurableMark, type DurableRecord } from './adapter.ts';
import { type Harm } from './catalogue/severity.ts';
import type { WorkerLife } from '@vendor-review/testbed';
import { type LedgerEntry, type LedgerKind, sumCosts } from '@vendor-review/world';
import type { CellObservation } from './observation.ts';

/**
 * Pure judgement of one cell against the uncrashed baseline of the same runtime and variant.
 * Every number here comes from the world's ledger or the runtime's durable record, never from
 * what a worker said about itself.
 */
export interface RepeatedOperation {
  opKey: string;
  /** The operation in words that do not name the run (what two repeats of a cell compare). */
  subject: string;
  kind: JudgedKind;
  step: string | null;
  count: number;
  baselineCount: number;
}

export interface Evidence {
  lastDurable: string;
  lastDurableShort: string;
  firstAfterResume: string;
  firstAfterResumeShort: string;
  repeatedOperations: string[];
  repeated: RepeatedOperation[];
  extraModelCalls: number;
  extraTokens: number;
  /** Null when a model's price is unknown. */
  extraCostUsd: number | null;
  stateDuplicated: boolean;
  stateDuplicatedWhy: string[];
  sideEffectDuplicated: boolean;
  sideEffectDuplicatedWhy: string[];
  recoveryMs: number | null;
  finalMatchesBaseline: boolean;
  /** The digest compared, for the report. */
  digest: string | null;
  baselineDigest: string | null;
  /** Ledger seqs of entries that re-executed an operation (the 2nd, 3rd… occurrence beyond the baseline). */
  repeatSeqs: number[];
  /** What the approver was sent in this run, judged apart from the repeats (UNJUDGED_KINDS). */
  approver: ApproverCount;
}

/**
 * Kinds of call the repeat and duplicate rules leave out. The approver's notification is no part
 * of the review: a runtime that runs a node again on resume tells the approver again with no crash
 * at all, so counted as a repeat it would move every row of that runtime for a reason that is not
 * the crash's. Its count is a row of its own (ApproverCount).
 */
export const UNJUDGED_KINDS = ['approver'] as const satisfies readonly LedgerKind[];
export type JudgedKind = Exclude<LedgerKind, (typeof UNJUDGED_KINDS)[number]>;

const judged = (e: LedgerEntry): e is LedgerEntry & { kind: JudgedKind } =>
  !(UNJUDGED_KINDS as readonly LedgerKind[]).includes(e.kind);

/** How often a run asked the approver (keyed repeats included) and how many requests the inbox kept. */
export interface ApproverCount {
  asked: number;
  inbox: number;
}

export function approverCount(ledger: readonly LedgerEntry[]): ApproverCount {
  const asked = executed(ledger).filter((e) => e.kind === 'approver');
  return { asked: asked.length, inbox: asked.filter((e) => e.outcome === 'ok').length };
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

/** Entries that really ran against the world: injected faults are the harness's own doing. */
export function executed(entries: readonly LedgerEntry[]): LedgerEntry[] {
  return entries.filter((e) => e.outcome !== 'fault');
}

/** Two checkpoints with one parent: two writers continued the same thread from the same point. */
export function forkedCheckpoints(record: DurableRecord | null): string[] {
  if (!record) return [];
  const children = new Map<string, number>();
  for (const m of record.marks) {
    if (m.kind !== 'checkpoint' || !m.parentId) continue;
    children.set(m.parentId, (children.get(m.parentId) ?? 0) + 1);
  }
  return [...children].filter(([, n]) => n > 1).map(([id]) => id);
}

/** How many of `items` share each key. */
export function countBy<T>(items: readonly T[], key: (t: T) => string): Map<string, number> {
  const m = new Map<string, number>();
  for (const i of items) m.set(key(i), (m.get(key(i)) ?? 0) + 1);
  return m;
}

/** "GET /vendors/acme/security" → "GET …/security"; model/tracker/mail by what they are. */
export function operationLabel(e: Pick<LedgerEntry, 'kind' | 'path' | 'method' | 'opKey'>): string {
  switch (e.kind) {
    case 'web': {
      const last = e.path.split('?')[0]!.split('/').filter(Boolean).pop() ?? e.path;
      return `${e.method} …/${last}`;
    }
    case 'model':
      return 'model call';
    case 'tracker':
      return 'tracker note';
    case 'mail':
      return 'mail';
    case 'approver':
      return 'approval request';
  }
}

/** Operations whose count in this run exceeds the baseline's: the re-executions. */
export function repeatedOperations(
  run: readonly LedgerEntry[],
  baseline: readonly LedgerEntry[] | null,
): RepeatedOperation[] {
  const ran = executed(run).filter(judged);
  const counts = countBy(ran, (e) => e.opKey);
  // Without a baseline, or for a key the baseline cannot have (it names the run), anything seen twice is the repeat.
  const base = baseline ? countBy(executed(baseline).filter(judged), (e) => e.opKey) : null;
  const out: RepeatedOperation[] = [];
  for (const [opKey, count] of counts) {
    // An operation the baseline never made under this key (the mail's key names the run) was expected once.
    const baselineCount = base?.get(opKey) ?? 1;
    if (count > baselineCount) {
      const first = ran.find((e) => e.opKey === opKey)!;
      out.push({ opKey, subject: first.subject, kind: first.kind, step: first.step, count, baselineCount });
    }
  }
  return out;
}

/** The seqs of the occurrences beyond the baseline's count, i.e. the entries a timeline should highlight. */
export function repeatSeqs(run: readonly LedgerEntry[], repeated: readonly RepeatedOperation[]): number[] {
  const seqs: number[] = [];
  for (const r of repeated) {
    const occurrences = executed(run).filter((e) => e.opKey === r.opKey);
    seqs.push(...occurrences.slice(Math.max(r.baselineCount, 1)).map((e) => e.seq));
  }
  return seqs.sort((a, b) => a - b);
}

function sums(entries: readonly LedgerEntry[]) {
  const ran = executed(entries);
  const model = ran.filter((e) => e.kind === 'model');
  return {
    modelCalls: model.length,
    tokens: model.reduce((s, e) => s + e.promptTokens + e.completionTokens, 0),
    cost: sumCosts(ran.map((e) => e.costUsd)),
  };
}

/** Side effects the outside world kept more often than in the baseline (deduplicated sends do not count). */
export function duplicatedSideEffects(run: readonly LedgerEntry[], baseline: readonly LedgerEntry[] | null): string[] {
  const delivered = (entries: readonly LedgerEntry[]) =>
    entries.filter((e) => (e.kind === 'mail' || e.kind === 'tracker') && e.outcome === 'ok');
  const counts = countBy(delivered(run), (e) => e.opKey);
  const base = baseline ? countBy(delivered(baseline), (e) => e.opKey) : new Map<string, number>();
  const why: string[] = [];
  for (const [opKey, n] of counts) {
    const allowed = base.get(opKey) ?? 1;
    if (n > allowed) {
      const kind = opKey.startsWith('mail') ? 'mail delivered' : 'tracker note stored';
      why.push(`${kind} ${n}× (expected ${allowed}): ${opKey}`);
    }
  }
  // Also by kind: a duplicate the receiver stored under a different key is still a duplicate.
  if (baseline && !why.length) {
    for (const kind of ['mail', 'tracker'] as const) {
      const mine = delivered(run).filter((e) => e.kind === kind).length;
      const theirs = delivered(baseline).filter((e) => e.kind === kind).length;
      if (mine > theirs)
        why.push(`${kind === 'mail' ? 'mails delivered' : 'tracker notes stored'}: ${mine}, baseline ${theirs}`);
    }
  }
  return why;
}

/**
 * What a hazard row's run (or runs) cost, from the ledger alone. There is no baseline: an operation
 * names itself within its run, so one that ran more than once in a run ran again, and an effect the
 * world kept more than once is a duplicate. Faults the world injected are not executions.
 */
export function hazardHarm(ledger: readonly LedgerEntry[]): Harm {
  const runs = new Map<string, LedgerEntry[]>();
  for (const e of ledger) runs.set(e.runId ?? '', [...(runs.get(e.runId ?? '') ?? []), e]);
  const repeatedByKind: Harm['repeatedByKind'] = {};
  let sideEffectDuplicated = false;
  for (const entries of runs.values()) {
    for (const r of repeatedOperations(entries, null))
      repeatedByKind[r.kind] = (repeatedByKind[r.kind] ?? 0) + r.count - r.baselineCount;
    if (duplicatedSideEffects(entries, null).length) sideEffectDuplicated = true;
  }
  return { repeatedByKind, sideEffectDuplicated };
}

/** Duplicated state: a forked checkpoint chain, one page found twice for a requirement, more notes than the baseline. */
export function duplicatedState(
  final: ReviewState | null,
  baselineFinal: ReviewState | null,
  record: DurableRecord | null,
): string[] {
  const why: string[] = [];
  const forks = forkedCheckpoints(record);
  if (forks.length) why.push(`checkpoint chain forks at ${forks.length} checkpoint(s)`);
  if (final) {
    for (const [req, list] of Object.entries(final.findings ?? {})) {
      const urls = (list ?? []).map((f) => f.url);
      if (new Set(urls).size < urls.length) why.push(`findings for ${req} list a page twice`);
    }
    const notes = Object.keys(final.progressNotes ?? {}).length;
    const baseNotes = baselineFinal ? Object.keys(baselineFinal.progressNotes ?? {}).length : null;
    if (baseNotes !== null && notes > baseNotes)
      why.push(`${notes} progress notes in state, baseline has ${baseNotes}`);
  }
  return why;
}

function isWorker(e: LedgerEntry, w: WorkerLife): boolean {
  return e.worker === w.name;
}

function markByWorker(m: DurableMark, w: WorkerLife): boolean {
  return m.writer === w.name;
}

/** Marks the record gained after the crash (not in the at-crash snapshot, or timed after the crash). */
export function marksAfterCrash(
  atCrash: DurableRecord | null,
  final: DurableRecord | null,
  crashAt: number,
): DurableMark[] {
  if (!final) return [];
  const before = new Set((atCrash?.marks ?? []).map((m) => m.id));
  return final.marks.filter((m) => (m.at !== null ? m.at > crashAt : !before.has(m.id)));
}

/** The last durable mark before the crash: pending writes are mentioned with the checkpoint they hang on. */
export function lastDurableBefore(
  atCrash: DurableRecord | null,
  crashAt: number | null,
): { short: string; long: string } {
  if (!atCrash) return { short: '—', long: 'no durable record could be read' };
  const marks = atCrash.marks.filter((m) => crashAt === null || m.at === null || m.at <= crashAt);
  if (atCrash.kind === 'none') return { short: 'nothing', long: `${atCrash.runtime} keeps nothing durable` };
  if (atCrash.kind === 'checkpoints') {
    const checkpoints = marks.filter((m) => m.kind === 'checkpoint');
    const last = checkpoints.at(-1);
    if (!last) return { short: 'nothing', long: 'no checkpoint was written before the crash' };
    const writes = marks.filter((m) => m.kind === 'pending-write' && m.parentId === last.id && m.step);
    if (!writes.length) return { short: last.short, long: last.long };
    const nodes = [...new Set(writes.map((w) => w.step))];
    return {
      short: `${last.short} +${writes.length}w`,
      long: `${last.long}, with ${writes.length} pending write(s) from ${nodes.join(', ')}`,
    };
  }
  // A history: the last event that recorded progress of the review (workflow tasks and scheduling are machinery).
  const meaningful = marks.filter((m) => !m.bookkeeping);
  const last = meaningful.at(-1);
  if (!last) return { short: 'nothing', long: 'no history event before the crash' };
  // Parallel siblings completed back to back are one fact: "FETCH ×2".
  let same = 0;
  for (
    let i = meaningful.length - 1;
    i >= 0 && meaningful[i]!.step === last.step && / done$/.test(meaningful[i]!.long);
    i--
  )
    same++;
  const tail = marks.at(-1)!;
  const then = tail !== last ? `; then ${tail.long}` : '';
  if (same > 1)
    return {
      short: `${last.short} ×${same}`,
      long: `${same} ${last.step} activities completed, the last as ${last.long}${then}`,
    };
  return { short: last.short, long: `${last.long}${then}` };
}

/**
 * Durable progress made by the resuming worker. A LangGraph checkpoint written after the crash can
 * only be B's (A is dead); a Temporal event counts only when it carries B's identity, because the
 * server writes timeouts and reschedules on its own.
 */
function progressMarks(obs: CellObservation, resumer: WorkerLife | null, crashAt: number): DurableMark[] {
  if (!resumer) return [];
  return marksAfterCrash(obs.durableAtCrash, obs.durableFinal, crashAt).filter(
    (m) => m.kind !== 'pending-write' && (m.kind === 'checkpoint' || markByWorker(m, resumer)),
  );
}

function firstAfter(
  obs: CellObservation,
  resumer: WorkerLife | null,
  crashAt: number,
): { short: string; long: string; at: number | null } {
  // The approver's notification is left out here too: a node run again tells them again, and the row
  // would then say that instead of the review's own first call.
  const fromLedger = obs.ledger.find(
    (e) => judged(e) && (resumer ? isWorker(e, resumer) : e.at > crashAt) && e.at >= crashAt,
  );
  const byResumer = progressMarks(obs, resumer, crashAt);
  const mark = byResumer.find((m) => !/wf task/.test(m.short)) ?? byResumer[0] ?? null;
  if (fromLedger) {
    const label = `${fromLedger.step ?? '?'} ${operationLabel(fromLedger)}`;
    return {
      short: label,
      long: `${label} (${fromLedger.opKey}, attempt ${fromLedger.attempt ?? '?'})`,
      at: fromLedger.at,
    };
  }
  if (mark) return { short: mark.short, long: mark.long, at: mark.at };
  return { short: '—', long: 'nothing ran after the crash', at: null };
}

/** crash → the resuming worker's first visible progress: a world call, or a durable write with a time. */
export function recoveryMs(obs: CellObservation, resumer: WorkerLife | null, crashAt: number): number | null {
  if (!resumer) return null;
  const times: number[] = [];
  const e = obs.ledger.find((x) => judged(x) && isWorker(x, resumer) && x.at >= crashAt);
  if (e) times.push(e.at);
  for (const m of progressMarks(obs, resumer, crashAt)) if (m.at !== null) times.push(m.at);
  if (!times.length) return null;
  return Math.max(0, Math.min(...times) - crashAt);
}

export function safeDigest(state: ReviewState | null): string | null {
  if (!state || !state.verdicts) return null;
  try {
    return reviewDigest(state);
  } catch {
    return null;
  }
}

export function computeEvidence(obs: CellObservation, baseline: CellObservation | null): Evidence {
  const baseLedger = baseline ? baseline.ledger : null;
  const repeated = repeatedOperations(obs.ledger, baseLedger);
  const mine = sums(obs.ledger);
  const base = baseLedger ? sums(baseLedger) : { modelCalls: mine.modelCalls, tokens: mine.tokens, cost: mine.cost };
  const sideWhy = duplicatedSideEffects(obs.ledger, baseLedger);
  const stateWhy = duplicatedState(obs.finalState, baseline?.finalState ?? null, obs.durableFinal);
  const digest = safeDigest(obs.finalState);
  const baselineDigest = baseline ? safeDigest(baseline.finalState) : null;

  const crashAt = obs.crash?.at ?? null;
  const resumer = obs.workers.find((w) => w.name !== 'A') ?? null;
  const last =
    obs.scenario.crashPoint === null
      ? lastDurableBefore(obs.durableFinal, null)
      : lastDurableBefore(obs.durableAtCrash, crashAt);
  const first =
    crashAt === null
      ? {
          short: '—',
          long: obs.scenario.crashPoint === null ? 'no crash: nothing resumed' : 'the worker never crashed',
          at: null,
        }
      : firstAfter(obs, resumer, crashAt);

  return {
    lastDurable: last.long,
    lastDurableShort: last.short,
    firstAfterResume: first.long,
    firstAfterResumeShort: first.short,
    repeatedOperations: repeated.map((r) => r.opKey),
    repeated,
    extraModelCalls: mine.modelCalls - base.modelCalls,
    extraTokens: mine.tokens - base.tokens,
    extraCostUsd: mine.cost === null || base.cost === null ? null : round6(mine.cost - base.cost),
    stateDuplicated: stateWhy.length > 0,
    stateDuplicatedWhy: stateWhy,
    sideEffectDuplicated: sideWhy.length > 0,
    sideEffectDuplicatedWhy: sideWhy,
    recoveryMs: crashAt === null ? null : recoveryMs(obs, resumer, crashAt),
    finalMatchesBaseline: digest !== null && baselineDigest !== null && digest === baselineDigest,
    digest,
    baselineDigest,
    repeatSeqs: repeatSeqs(obs.ledger, repeated),
    approver: approverCount(obs.ledger),
  };
}
