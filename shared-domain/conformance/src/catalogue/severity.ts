/**
 * The scale a person reads the whole comparison by (the report's scorecard): what the worst thing
 * was that a crash or a hazard did to a run and to the world, from harmless to lost. Written once,
 * beside the catalogue: every hazard verdict has its place on it (a test holds new verdicts to that).
 */
export const SEVERITIES = ['nothing', 'read', 'paid', 'effect', 'lost'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const SEVERITY_TEXT: Record<Severity, string> = {
  nothing: 'nothing repeated',
  read: 'a free call repeated (a read, or a resend its key collapsed)',
  paid: 'a paid model call repeated',
  effect: 'an effect duplicated, or a write accepted from a stale worker',
  lost: 'the run lost, failed or stuck',
};

export function worst(severities: Iterable<Severity>): Severity {
  let i = 0;
  for (const s of severities) i = Math.max(i, SEVERITIES.indexOf(s));
  return SEVERITIES[i]!;
}

/**
 * What a run cost, as the ledger counts it: the same facts for a crash cell's run (against its
 * baseline) and a hazard row's (against once per operation), so both are coloured by one rule.
 */
export interface Harm {
  /** Executions beyond what the run needed, per kind of operation (web, model, tracker, mail). */
  repeatedByKind: Partial<Record<string, number | undefined>>;
  /** The outside world kept a second copy of an effect. */
  sideEffectDuplicated: boolean;
  /** The run did not complete (lost, failed, stuck). */
  lost?: boolean;
}

export function harmSeverity(h: Harm): Severity {
  if (h.lost) return 'lost';
  if (h.sideEffectDuplicated) return 'effect';
  if ((h.repeatedByKind.model ?? 0) > 0) return 'paid';
  return Object.values(h.repeatedByKind).some((n) => (n ?? 0) > 0) ? 'read' : 'nothing';
}

/**
 * A hazard run's place on the scale: the worse of what its verdict means and what it measured. A
 * verdict about protection (fenced, one writer) says who acted, not what the row cost: a fenced run
 * that paid its call four times is a paid repeat.
 */
export function hazardSeverity(verdict: string, harm: Harm): Severity | null {
  const said = VERDICT_SEVERITY[verdict];
  return said === undefined ? null : worst([said, harmSeverity(harm)]);
}

/**
 * Where each hazard verdict sits. A safe refusal (a run waiting for the right code, a dead letter a
 * person will read) harms neither the run's history nor the world: `nothing`. A run gone, even
 * honestly, is `lost`: memory is not storage.
 */
export const VERDICT_SEVERITY: Record<string, Severity> = {
  recovered: 'nothing',
  'dead-lettered': 'nothing',
  'failed-at-once': 'lost',
  'worker-died': 'lost',
  'looks-stuck': 'lost',
  'retried-permanent': 'lost',
  'false-dead-letter': 'lost',
  // Dead-lettered as it should be, but after paying for more calls than the cap allows.
  'over-cap': 'paid',
  refused: 'nothing',
  accepted: 'lost',
  forked: 'effect',
  'one-writer': 'nothing',
  'fenced-by-runtime': 'nothing',
  'fenced-by-lease': 'nothing',
  'not-replaced': 'nothing',
  'late-write-accepted': 'effect',
  'refused-but-repeated': 'effect',
  'repeated-the-takeover': 'effect',
  // Nothing stopped the woken worker: the colour is that of the risk it ran, not of a fence.
  'died-on-waking': 'effect',
  'not-fenced': 'effect',
  resumed: 'nothing',
  'refused-clearly': 'nothing',
  'read-blindly': 'nothing',
  'wrong-review': 'effect',
  broke: 'lost',
  'lost-and-said-so': 'lost',
  'lost-silently': 'lost',
  'restarted-silently': 'effect',
  survived: 'nothing',
  'rode-it-out': 'nothing',
  'restart-needed': 'nothing',
  'duplicated-effects': 'effect',
  'left-while-cut-off': 'nothing',
  // The customer holds one copy; the second send reached the receiver and was collapsed there.
  'collapsed-by-key': 'read',
  // A zombie past its runtime's timeouts: the runtime moved nothing, or the mail went out once or twice.
  'not-moved': 'nothing',
  'sent-twice': 'effect',
  'sent-once': 'nothing',
  seamless: 'nothing',
  'repeated-paid-calls': 'paid',
  'lost-the-run': 'lost',
  'removed-finished-only': 'nothing',
  'removed-live': 'lost',
  'removed-young': 'lost',
  'kept-expired': 'nothing',
  agrees: 'nothing',
  diverged: 'effect',
  hidden: 'effect',
};
