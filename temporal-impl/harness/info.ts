import { runConfigurations, type RuntimeInfo } from '@vendor-review/conformance';

const NAIVE_TEMPORAL_RETRIES =
  'Temporal’s default retry policy retries every failure, forever, with a growing backoff: without a policy of your own there is no cap and no dead letter.';

const TEMPORAL_ONE_TASK =
  'Temporal hands each task (a workflow task, an activity attempt) to exactly one polling worker and lets one workflow task run at a time: a second worker on the queue gets the next task, never the one the first holds. The runtime owns this, not the variant.';

const TEMPORAL_STALE_TOKEN =
  'An activity completes with its task token, which names the attempt; once the heartbeat timeout has ended an attempt, the server answers its completion with NotFound and its result never reaches the history. The fence is the runtime’s, not the variant’s: hardened adds no lease of its own. Its catch: a stopped worker’s long polls stay open, so the server usually hands the retry back to the frozen worker rather than to the live one, and nobody runs the step until it wakes. A worker frozen between two activities (in the outbox drainer, right after the mail left) holds a workflow task instead: its timeout ends that hand-out and the server hands the task out again, often back to the frozen worker, whose completions of the ended hand-outs never reach the history.';

const TEMPORAL_CHECKS_ENCODINGS =
  'Every Temporal payload carries its encoding, and the data converter refuses one it has no converter or codec for, whatever the workflow code: the check is the SDK’s, not the variant’s.';

const TEMPORAL_SERVER_KEEPS_IT =
  'The workflow’s history is on the server’s database file and the worker’s pollers retry until the server is back; an activity that reports within its heartbeat timeout counts once. The runtime rides it out in both variants.';

const TEMPORAL_RESTART_RACE =
  'The server is stopped with a tracker note sent and its activity not yet reported. Rode-it-out: the worker’s report reaches the server once it is back, the activity counts once and nothing repeats. Duplicated-effects: it does not, the activity runs again, and without a key the tracker keeps the note twice (measured on a loaded machine, the row’s figures say how long the server was down). Which comes is a race between the outage and the activity’s own timeouts; the hardened key makes the second send harmless.';

const TEMPORAL_DRAINS_BY_ITSELF =
  'The SDK’s Runtime shuts the worker down on SIGTERM by itself (its default shutdownSignals) with no code of ours; with the default shutdownGraceTime of 0 it cancels the activity in flight at once, but cancellation is cooperative and the step does not listen for it, so the step finishes, its result is reported, and the worker exits 0 (measured: 0.03–0.8 s after SIGTERM). Naive drains like hardened.';

const TEMPORAL_ZOMBIE_AT_EFFECT =
  'The woken worker’s completions are refused (stale task token), but a frozen worker’s long polls stay open, so the server hands it the retries of the step it froze in while it sleeps (2 in 12 s, measured) and nobody else takes over; once woken it runs each of them, and without a key every one is a mail: the customer received 4 copies. The fence is on the history, not on the effect.';

/** Temporal as the harness sees it: no durability modes, a history instead of checkpoints. */
export const TEMPORAL: RuntimeInfo = {
  name: 'temporal',
  startCall:
    "worker A's process, at the client's start (src/client.ts startRun, made by harness/start-run.ts before the process serves the queue): the process is the client that makes the start call and the worker that would run the run, so the kill takes both; the start is durable once the server has accepted StartWorkflowExecution",
  label: 'TM',
  title: 'Temporal',
  colour: '#7c3aed',
  configurations: runConfigurations(),
  crashDeviations: [
    {
      points: ['mid-commit'],
      expected: { kind: 'not-reached' },
      why: 'An activity’s result is kept by the server once the SDK’s core has sent its completion; that exchange happens in the worker’s Rust core, where no code of ours runs.',
    },
    {
      variant: 'naive',
      stop: 'term',
      stepOutlastsGrace: false,
      expected: { kind: 'rule', outcome: { repeats: {}, duplicateEffect: false, leaves: 'itself' } },
      why: TEMPORAL_DRAINS_BY_ITSELF,
    },
  ],
  hazardDeviations: [
    {
      hazard: 'partition',
      variant: 'hardened',
      expected: 'one-writer',
      why: 'A Temporal worker serves its task queue: cut off, its activity’s heartbeats stop reaching the server, the heartbeat timeout hands the step to the standby worker as a new attempt, and the cut-off worker is handed nothing more. It made no call while cut off and stays up, as a pool member should; its history passed the step on to a new attempt, and nothing it reported after healing was accepted. Nothing twice: it stopped acting without leaving.',
    },
    { hazard: 'retry-transient', variant: 'naive', expected: 'recovered', why: NAIVE_TEMPORAL_RETRIES },
    { hazard: 'retry-exhausted', variant: 'naive', expected: 'looks-stuck', why: NAIVE_TEMPORAL_RETRIES },
    { hazard: 'retry-permanent', variant: 'naive', expected: 'retried-permanent', why: NAIVE_TEMPORAL_RETRIES },
    { hazard: 'retry-lost-workers', variant: 'naive', expected: 'recovered', why: NAIVE_TEMPORAL_RETRIES },
    { hazard: 'retry-lost-workers-exhausted', variant: 'naive', expected: 'looks-stuck', why: NAIVE_TEMPORAL_RETRIES },
    { hazard: 'two-writers', variant: 'naive', expected: 'one-writer', why: TEMPORAL_ONE_TASK },
    { hazard: 'zombie', variant: 'naive', expected: 'fenced-by-runtime', why: TEMPORAL_STALE_TOKEN },
    { hazard: 'zombie', variant: 'hardened', expected: 'fenced-by-runtime', why: TEMPORAL_STALE_TOKEN },
    { hazard: 'zombie-at-effect', variant: 'naive', expected: 'duplicated-effects', why: TEMPORAL_ZOMBIE_AT_EFFECT },
    { hazard: 'zombie-at-effect', variant: 'hardened', expected: 'fenced-by-runtime', why: TEMPORAL_STALE_TOKEN },
    { hazard: 'deploy-unknown-format', variant: 'naive', expected: 'refused-clearly', why: TEMPORAL_CHECKS_ENCODINGS },
    {
      hazard: 'restart-server',
      variant: 'naive',
      expected: 'rode-it-out',
      alsoSeen: ['duplicated-effects'],
      why: `${TEMPORAL_SERVER_KEEPS_IT} ${TEMPORAL_RESTART_RACE}`,
    },
    { hazard: 'rolling-deploy', variant: 'naive', expected: 'seamless', why: TEMPORAL_DRAINS_BY_ITSELF },
  ],
};
