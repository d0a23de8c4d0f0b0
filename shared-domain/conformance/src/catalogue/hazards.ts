import type { Variant } from '@vendor-review/pipeline';

/**
 * The production half of the comparison: a checkpoint makes a run resumable, not correct. Each
 * hazard is written once, here, with the verdicts it can end in and the one each variant must
 * reach; a runtime documented to end elsewhere says so beside it, with the reason. The harness
 * (shared-domain/conformance/src/production) puts every runtime through each hazard and judges
 * the outcome from the world's ledger and the durable records.
 */
export type HazardSection =
  | 'retries'
  | 'two-writers'
  | 'zombie'
  | 'partition'
  | 'deploy'
  | 'stopping'
  | 'memory'
  | 'restarts'
  | 'retention'
  | 'bad-input'
  | 'nondeterminism';

export const HAZARD_SECTIONS: Record<HazardSection, { title: string; lesson: string }> = {
  retries: {
    title: 'Retry the transient, not the permanent',
    lesson:
      'A rate limit or a 503 may clear if tried again; a 422 never will. A retry policy needs a rule (which errors), a cap (how many attempts) and a dead letter at the end (the input, the error and the attempts, for a person), or a failing run looks stuck instead of failed.',
  },
  'two-writers': {
    title: 'One writer per run',
    lesson:
      'A checkpoint makes a run resumable, not exclusive: two workers that load the same run both continue it, and every side effect after that point happens twice. Something must decide who owns the run: a lease with a fencing token, or a runtime that hands each task to one worker.',
  },
  zombie: {
    title: 'The worker that comes back',
    lesson:
      'A paused worker (a stopped VM, a long GC) does not know it was replaced. When it wakes it carries on where it was; only a check at the point of writing (a fencing token, a stale task token) keeps what it does from being accepted.',
  },
  partition: {
    title: 'The worker cut off from its store',
    lesson:
      'A worker that cannot reach its database or its server is not dead: it can still call the model and send the mail while its lease runs out and another worker takes the run over. A lease or a task token fences the writes to the store, not the effects in the world: only the idempotency key and the outbox keep the customer from a second mail.',
  },
  deploy: {
    title: 'State outlives code',
    lesson:
      'A run checkpointed by last week’s code is resumed by today’s. If the state’s shape or the steps changed, the resume must migrate the state or replay through a version check, or refuse clearly; it must never run on a half-read state.',
  },
  stopping: {
    title: 'Workers asked to stop',
    lesson:
      'Most workers do not die: a deploy or a scale-in asks them to stop and gives them a grace period. A worker that drains (finishes the step in flight, makes it durable, then leaves) costs nothing; one that dies of the signal costs what a crash costs, every deploy, on every worker.',
  },
  memory: {
    title: 'Memory is not storage',
    lesson:
      'A checkpointer or a server that keeps its state in memory loses it with the process. The run cannot be resumed, and the honest answer is to say so, not to start again silently.',
  },
  restarts: {
    title: 'The infrastructure restarts',
    lesson:
      'The database or the orchestrator restarting mid-run is routine. Writes in flight fail and must be retried; a run that keeps its state on disk goes on where it was once the server is back.',
  },
  retention: {
    title: 'Retention',
    lesson:
      'A finished run is worth keeping long enough to answer an incident review, and no longer. Deleting must never touch a run that is live or waiting for a person.',
  },
  'bad-input': {
    title: 'Bad input at the front door',
    lesson:
      'A malformed request is refused before anything exists: no run, no checkpoint, no workflow, no call to the world. Caught later, it becomes a failed run someone has to clean up.',
  },
  nondeterminism: {
    title: 'A nondeterministic step before an effect',
    lesson:
      'An idempotency key collapses a resent effect only if the payload is the same. If the step that made the payload runs again and answers differently, the key hides the disagreement: what the customer received is not what the run holds. Recording the step’s result makes the payload deterministic.',
  },
};

export interface HazardSpec {
  section: HazardSection;
  /** What is done to the run, in a few words. */
  title: string;
  /** The verdicts this hazard can end in: code → sentence. */
  verdicts: Record<string, string>;
  /** The verdict each variant must reach. */
  expected: Record<Variant, string>;
  /**
   * Run only for the runtimes that list it (RuntimeInfo `optInHazards`), never by default: its drill
   * probes settings one runtime has and the others' rows already cover.
   */
  optIn?: true;
}

/**
 * A runtime's documented departure from a hazard's expected verdict, listed in its own runtime
 * module (RuntimeInfo `hazardDeviations`) with the reason.
 */
export interface HazardDeviation {
  hazard: HazardId;
  variant?: Variant;
  expected: string;
  /** Verdicts also measured for this row, run to run (a race the runtime does not decide): each is accepted, and the row says so. */
  alsoSeen?: readonly string[];
  why: string;
}

/** Not a retry rule's answer: the run was left unfinished by a worker that died of something else. */
const WORKER_DIED =
  'the worker died with the run neither finished nor failed (how, in the row): the retry rule was never reached';

const RETRY_VERDICTS = {
  recovered: 'retried the transient error and completed',
  'dead-lettered': 'gave up at the cap: failed, with the input, the error and the attempts in a dead letter',
  'failed-at-once': 'failed at the first error: no retry, no dead letter',
  'looks-stuck': 'still retrying past any cap: running, no dead letter, nobody told',
  'retried-permanent': 'retried an error no retry can fix: running, no dead letter',
  'worker-died': WORKER_DIED,
};

const LOST_WORKER_VERDICTS = {
  recovered:
    'completed: the step met fewer errors of its own than the cap, and the two workers lost under it spent none of it',
  'dead-lettered': 'dead-lettered once the step had met the cap of its own errors, whatever happened to the machines',
  'false-dead-letter':
    'dead-lettered below the cap of the step’s own errors (the ledger shows fewer): the lost workers were counted as attempts',
  'over-cap':
    'dead-lettered after more errors of its own than the cap: a worker lost mid-retry took the count with it, and the next began again',
  'failed-at-once': 'failed at the first error: no retry, no dead letter',
  'looks-stuck': 'still retrying past the cap of its own errors: running, no dead letter, nobody told',
  'worker-died': WORKER_DIED,
};

/**
 * Who stopped a worker woken after its takeover, from the records alone: a fence is named only
 * where the runtime's records show the frozen worker's task passed on to a newer attempt or token
 * while it slept (and say whose token that is); where none did, the verdict says what happened
 * instead.
 */
const ZOMBIE_VERDICTS = {
  'fenced-by-runtime':
    'the runtime stopped the woken worker: its own records passed the frozen task on (a newer attempt, a new owner) while it slept, and nothing the woken worker wrote was accepted',
  'fenced-by-lease':
    'our lease’s fencing token stopped the woken worker: the run’s lease passed to a newer token while it slept, and nothing the woken worker wrote was accepted',
  'late-write-accepted':
    'nobody stopped the woken worker: it went on from its stale state and its writes were accepted',
  'refused-but-repeated':
    'its writes were refused (the row says by what), but its calls to the world after waking repeated effects the takeover had made',
  'repeated-the-takeover':
    'nobody stopped the woken worker: no record passed its task on, and its calls to the world after waking repeated effects the takeover had made',
  'died-on-waking':
    'nobody stopped the woken worker: no record passed its task on; it died on waking, before anything it did was accepted or repeated an effect. Dying is not a fence: the next one may live',
  'not-fenced':
    'nobody stopped the woken worker: no record passed its task on; it happened to repeat no effect and to write nothing the record attributes to it',
  'not-replaced':
    'nobody took the run over while the worker slept: it woke still its owner and finished the run, so there was no stale write to stop',
};

/** What a worker cut off from its store did, and what of it the store and the customer kept, from the records alone. */
const PARTITION_VERDICTS = {
  'lost-the-run': 'the run did not complete after the cut healed',
  'duplicated-effects':
    'the customer holds a second copy of an effect (a tracker note, the mail): the cut-off worker and the takeover both sent it',
  'late-write-accepted':
    'after healing, the store accepted a write from the cut-off worker, which went on from its stale state',
  'not-replaced': 'nobody took the run over while the worker was cut off: it finished the run once healed',
  'left-while-cut-off':
    'the cut-off worker’s process ended by itself while cut off, before any effect (the row says how: a stop of its own that says why, or an error it died of): the takeover finished the run, nothing twice, nothing of it accepted',
  'collapsed-by-key':
    'the cut-off worker went on and sent an effect the takeover sent too; the receiver collapsed the second by its key: one copy, nothing of it accepted in the store',
  'one-writer':
    'the cut-off worker sent nothing twice and nothing it wrote was accepted: the takeover alone carried the run on (the row says what the cut-off worker did)',
};

const DEPLOY_BROKE =
  'the run failed or stopped with an error that does not say the record is from other code, or went on and did something else';

const RESTART_VERDICTS = {
  'rode-it-out':
    'completed with the workers it had (none died) and no external effect happened twice; the row says what the record shows was tried again',
  'restart-needed':
    'completed with no external effect twice, but a worker died on the outage and a supervisor had to start another',
  'duplicated-effects': 'an external effect (a tracker note, the mail) happened twice because of the outage',
  'lost-the-run': 'after the outage the run failed, is gone, or made no progress',
};

export const HAZARDS = {
  'retry-transient': {
    section: 'retries',
    title: 'two 503s from the tracker, then it answers',
    verdicts: RETRY_VERDICTS,
    expected: { naive: 'failed-at-once', hardened: 'recovered' },
  },
  'retry-exhausted': {
    section: 'retries',
    title: 'the vendor site answers 503, forever',
    verdicts: RETRY_VERDICTS,
    expected: { naive: 'failed-at-once', hardened: 'dead-lettered' },
  },
  'retry-permanent': {
    section: 'retries',
    title: 'the tracker refuses the note with a 422',
    verdicts: RETRY_VERDICTS,
    expected: { naive: 'failed-at-once', hardened: 'dead-lettered' },
  },
  'retry-lost-workers': {
    section: 'retries',
    title: 'the model call fails transiently (one error fewer than the cap) and its worker is killed twice mid-call',
    verdicts: LOST_WORKER_VERDICTS,
    expected: { naive: 'failed-at-once', hardened: 'recovered' },
  },
  'retry-lost-workers-exhausted': {
    section: 'retries',
    title: 'the model call fails transiently for good and its worker is killed twice mid-call',
    verdicts: LOST_WORKER_VERDICTS,
    expected: { naive: 'failed-at-once', hardened: 'dead-lettered' },
  },
  'bad-input': {
    section: 'bad-input',
    title: 'malformed requests started through the runtime',
    verdicts: {
      refused: 'refused before anything existed: no run, no durable record, no call to the world',
      accepted: 'accepted: a run exists for a request that can never succeed',
    },
    expected: { naive: 'refused', hardened: 'refused' },
  },
  'two-writers': {
    section: 'two-writers',
    title: 'a worker dies; two workers resume the run at the same moment',
    verdicts: {
      forked: 'both continued the run: every effect after the resume point happened twice',
      'one-writer':
        'one worker continued the run: nothing ran twice and the record did not fork (the row says what the records show kept the other out: a refusal, the runtime handing the run to one owner, or nothing)',
    },
    expected: { naive: 'forked', hardened: 'one-writer' },
  },
  zombie: {
    section: 'zombie',
    title:
      'a worker frozen (SIGSTOP) in a model call for 12 s, past its lease or heartbeat timeout, while a second worker stands by; it wakes on its own clock',
    verdicts: ZOMBIE_VERDICTS,
    expected: { naive: 'late-write-accepted', hardened: 'fenced-by-lease' },
  },
  'zombie-at-effect': {
    section: 'zombie',
    title:
      'a worker frozen (SIGSTOP) for 12 s right after its mail was sent, before the step is durable, while a second worker stands by; it wakes on its own clock',
    verdicts: {
      ...ZOMBIE_VERDICTS,
      'duplicated-effects':
        'the customer holds more than one copy of the mail: the takeover sent it again, or the woken worker did (the row says who stopped the woken worker, if anyone)',
    },
    expected: { naive: 'late-write-accepted', hardened: 'fenced-by-lease' },
  },
  'zombie-past-timeouts': {
    section: 'zombie',
    title:
      'a worker frozen (SIGSTOP) right after its mail was sent, past the shorter timeouts a team sets for a faster takeover, until its runtime retries; reached directly (no load balancer), no second worker; it wakes on its own clock',
    verdicts: {
      'not-moved':
        'the runtime never gave up on the frozen worker within its timeouts: it woke still holding the run and finished it',
      'sent-twice':
        'the runtime gave up on the frozen attempt and retried; the woken worker ran the retry as well as its stale attempt, and the customer holds two mails',
      'collapsed-by-key':
        'the runtime gave up on the frozen attempt and retried; the mail went out again and the receiver collapsed it by its key: one copy',
      'sent-once':
        'the runtime gave up on the frozen attempt and retried; the mail went out once: the retry did not send it again',
    },
    expected: { naive: 'sent-twice', hardened: 'sent-once' },
    optIn: true,
  },
  partition: {
    section: 'partition',
    title: `a worker cut off from its store and its runtime's server (every connection reset, new ones refused) in its paid model call, for 8 s, while a second worker stands by; the world stays reachable; then healed`,
    verdicts: PARTITION_VERDICTS,
    expected: { naive: 'one-writer', hardened: 'left-while-cut-off' },
  },
  'partition-at-effect': {
    section: 'partition',
    title: `a worker cut off from its store and its runtime's server just before it sends the mail, for 8 s, while a second worker stands by; the world stays reachable; then healed`,
    verdicts: PARTITION_VERDICTS,
    expected: { naive: 'duplicated-effects', hardened: 'collapsed-by-key' },
  },
  'deploy-v1-state': {
    section: 'deploy',
    title:
      'last release’s code (state key `sitemap`, VERIFY a scheduled activity) runs the review to its approval and is killed; today’s code resumes it',
    verdicts: {
      resumed: 'today’s code read the old run and completed with the review the vendor’s pages support',
      'refused-clearly':
        'today’s code refused the old run with an error saying where and why, and made no call to the world after the resume; the run waits for the right code',
      'wrong-review': 'completed, but the review is not the one the vendor’s pages support',
      broke: DEPLOY_BROKE,
    },
    expected: { naive: 'refused-clearly', hardened: 'resumed' },
  },
  'deploy-unknown-format': {
    section: 'deploy',
    title:
      'while the run waits for approval, its record gets something in a format this code does not read (a serializer from a later release; an approval an encryption codec wrote)',
    verdicts: {
      'refused-clearly':
        'refused, naming the format it does not read, with no call to the world after the resume: nothing ran on bytes it could not vouch for',
      'read-blindly':
        'never looked at the format and went on: here the bytes happened to be readable, the next ones may not be',
      broke: DEPLOY_BROKE,
    },
    expected: { naive: 'read-blindly', hardened: 'refused-clearly' },
  },
  'rolling-deploy': {
    section: 'stopping',
    title:
      'a rolling deploy: two reviews in flight, their workers replaced one at a time (SIGTERM in a paid call, a 5 s grace, a new process)',
    verdicts: {
      seamless:
        'every step in flight finished and was kept: no paid call ran twice, no effect twice, every review completed',
      'repeated-paid-calls':
        'every review completed with no effect twice, but paid calls cut off by the stop ran again',
      'duplicated-effects': 'an effect (a tracker note, the mail) was delivered twice because of the deploy',
      'lost-the-run': 'a review did not complete after the deploy',
    },
    expected: { naive: 'repeated-paid-calls', hardened: 'seamless' },
  },
  'memory-lost': {
    section: 'memory',
    title:
      'the run lives in memory (a checkpointer, or a server, that keeps nothing on disk) and what holds it is killed mid-run',
    verdicts: {
      'lost-and-said-so':
        'the run is gone, and the runtime says so and why in plain words; nothing was started again behind anyone’s back',
      'lost-silently': 'the run is gone, but nothing says so: it still looks running, or is unknown without a reason',
      'restarted-silently':
        'the run was started again from its request without anybody asking: every step and effect repeats',
      survived: 'the run went on: its state was not in memory only after all',
    },
    expected: { naive: 'lost-and-said-so', hardened: 'lost-and-said-so' },
  },
  'restart-postgres': {
    section: 'restarts',
    title:
      'PostgreSQL restarted twice mid-run: just after a tracker note and just after the mail, each before it is recorded',
    verdicts: RESTART_VERDICTS,
    expected: { naive: 'duplicated-effects', hardened: 'rode-it-out' },
  },
  'restart-server': {
    section: 'restarts',
    title:
      'the runtime’s own server killed and restarted on its data, twice mid-run: just after a tracker note and just after the mail',
    verdicts: RESTART_VERDICTS,
    expected: { naive: 'duplicated-effects', hardened: 'rode-it-out' },
  },
  retention: {
    section: 'retention',
    title:
      'four runs (finished before the window, finished within it, waiting for approval, live), then retention with that window',
    verdicts: {
      'removed-finished-only':
        'removed everything stored for the run that finished before the window, and nothing of the other three',
      'removed-live': 'removed something of a run that was live or waiting for a person',
      'removed-young': 'removed a run that finished within the window',
      'kept-expired': 'the run that finished before the window is still stored',
    },
    expected: { naive: 'removed-finished-only', hardened: 'removed-finished-only' },
  },
  'nondeterministic-effect': {
    section: 'nondeterminism',
    title:
      'the model answers differently when asked again; the worker dies after the node that drafts and mails (coarse) has sent, before it is durable',
    verdicts: {
      agrees: 'the mail the customer received is the draft the run holds',
      diverged: 'the resend carried a new draft: the customer holds a review the run does not',
      hidden:
        'the receiver collapsed the resend by its key: the customer kept the first draft, the run holds another, and nobody was told',
      refused:
        'the receiver refused the key reused with a different body (422): the disagreement surfaced, and the run stopped in the dead letter',
    },
    // A key collapses a resend only if the payload is the same: hardened sends one, and meets the 422.
    expected: { naive: 'diverged', hardened: 'refused' },
  },
} as const satisfies Record<string, HazardSpec>;

export type HazardId = keyof typeof HAZARDS;
export const HAZARD_IDS = Object.keys(HAZARDS) as HazardId[];

/**
 * The default run answers each lesson once, with the hazard whose rows show it most sharply across
 * the runtimes (as the rows measured it: docs/production.md); `--full`, `--hazard` and
 * each runtime's own tests run every hazard. Each choice says why.
 */
export const LESSON_HAZARDS: Record<HazardSection, { hazard: HazardId; why: string }> = {
  retries: {
    hazard: 'retry-permanent',
    why: 'a 422 parts the rows three ways: failed at once with no retry, retried without end, dead-lettered after one attempt',
  },
  'bad-input': { hazard: 'bad-input', why: 'the only one' },
  'two-writers': { hazard: 'two-writers', why: 'the only one' },
  zombie: {
    hazard: 'zombie-at-effect',
    why: 'the woken worker’s resend reaches the customer as a second mail, where at the model call the rows differ only in cost',
  },
  partition: {
    hazard: 'partition-at-effect',
    why: 'cut off before the mail, a worker that goes on sends it while the takeover sends it too: the rows part on the key and the outbox, where in the model call they differ only in cost',
  },
  deploy: {
    hazard: 'deploy-v1-state',
    why: 'each way a runtime meets old state is in its rows: migrated, refused clearly, replayed behind a guard, waiting without a word',
  },
  stopping: { hazard: 'rolling-deploy', why: 'the only one' },
  memory: { hazard: 'memory-lost', why: 'the only one' },
  restarts: {
    hazard: 'restart-postgres',
    why: 'every runtime keeps something in PostgreSQL, so every row meets the outage; its own server’s restart reaches one runtime',
  },
  retention: { hazard: 'retention', why: 'the only one' },
  nondeterminism: { hazard: 'nondeterministic-effect', why: 'the only one' },
};

/** The default run's hazards, one per lesson, in the catalogue's order. */
export const DEFAULT_HAZARDS: readonly HazardId[] = HAZARD_IDS.filter((id) =>
  Object.values(LESSON_HAZARDS).some((l) => l.hazard === id),
);

export function expectedVerdict(
  id: HazardId,
  variant: Variant,
  deviations: readonly HazardDeviation[],
): { verdict: string; alsoSeen: readonly string[]; why: string | null } {
  const d = deviations.find((x) => x.hazard === id && (x.variant === undefined || x.variant === variant));
  return d
    ? { verdict: d.expected, alsoSeen: d.alsoSeen ?? [], why: d.why }
    : { verdict: HAZARDS[id].expected[variant], alsoSeen: [], why: null };
}
