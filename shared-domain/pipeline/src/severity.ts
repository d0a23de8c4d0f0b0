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
 * Where each hazard verdict sits. A safe refusal (a run waiting for the right code, a dead letter a
 * person will read) harms neither the run's history nor the world: `nothing`. A run gone, even
 * honestly, is `lost`: memory is not storage.
 */
export const VERDICT_SEVERITY: Record<string, Severity> = {
  recovered: 'nothing',
  'dead-lettered': 'nothing',
  'failed-at-once': 'lost',
  'looks-stuck': 'lost',
  'retried-permanent': 'lost',
  'false-dead-letter': 'lost',
  // Dead-lettered as it should be, but after paying for more calls than the cap allows.
  'over-cap': 'paid',
  refused: 'nothing',
  accepted: 'lost',
  forked: 'effect',
  'one-writer': 'nothing',
  fenced: 'nothing',
  'late-write-accepted': 'effect',
  'refused-but-repeated': 'effect',
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
