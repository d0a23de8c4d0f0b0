import { runConfigurations, type RuntimeInfo } from '@vendor-review/conformance';

/** Measured in test/production.e2e.test.ts: the retry rows of the naive workflow. */
const NAIVE_RESTATE_RETRIES =
  'Restate retries a `ctx.run` that throws anything but a TerminalError, with backoff, by default and with no cap the rows reached: the transient error is ridden out, and the permanent one and the exhausted one are retried for as long as the row watches, with no dead letter and nothing said to anyone (the server counts the attempts: `retry_count`, `last_failure` in sys_invocation).';

/** Measured in test/production.e2e.test.ts (two-writers): a second endpoint of the run does not start a second run. */
const ONE_INVOCATION =
  'A workflow key runs its `run` handler once: the second worker’s submit of the same run is “PreviouslyAccepted”, and the server pushes the one invocation to one endpoint at a time; the records name no endpoint, so the row cannot say which one held it.';

/**
 * Measured in test/production.e2e.test.ts (zombie, zombie-at-effect), with the server's defaults
 * (`restate-server --dump-config`: inactivity-timeout 1m, abort-timeout 10m, HTTP/2 keep-alive 40s
 * + 20s). Frozen past the timeouts a service sets shorter: zombie-past-timeouts (drills.ts).
 */
const HELD_BY_THE_FROZEN_ENDPOINT =
  'These rows hold only for a freeze shorter than what the server gives a silent endpoint: they freeze it for 12 s, and the server gives up on an attempt only after the service’s inactivity and abort timeouts (Restate’s defaults: a minute, then ten). Within them nothing breaks: nobody takes the run over and the woken endpoint finishes it. No mail twice, no late write; the run stood still while its endpoint slept, and the standby endpoint got nothing. Frozen past those timeouts (`zombie-past-timeouts`, run by `--full`) the server retries, the retry goes to the frozen process, and naive’s mail goes out twice.';

/** Measured in test/production.e2e.test.ts (deploy-v1-state, the deploy drill in drills.ts). */
const PINNED_SILENT =
  'Restate pins an invocation to the deployment it started on and replays it only there: with last release’s endpoint gone, the server retries last release’s address (backing off) and never gives the run to today’s endpoint, which registered its own deployment and waits beside it, saying nothing; no call is made, no error is raised, until an endpoint of the pinned deployment comes.';

const DEPLOYMENT_CHECK_REFUSES =
  'The server cannot move an invocation to new code (it replays only on the deployment it started on), so the hardened cell checks the run’s pinned deployment against the one it registered, as a team’s deploy check would, and refuses clearly (exit 6, harness/deployment-check.ts), leaving the run to an endpoint of its deployment: Restate’s way across a deploy is to keep the previous deployment’s endpoints until their invocations drain.';

/** Measured in test/production.e2e.test.ts (deploy-unknown-format). */
const FOREIGN_APPROVAL_WAITS =
  'The approval is a call to the workflow’s approve handler, whose input the endpoint reads as JSON: bytes it cannot read never resolve the approval promise, so the run goes on waiting for a person, with nothing said in the run, in both variants.';

/** Restate as the harness sees it: no durability modes, a journal kept by its own server. */
export const RESTATE_INFO: RuntimeInfo = {
  name: 'restate',
  startCall:
    "the endpoint process, at its submit to the server's ingress (harness/endpoint-run.ts): the cell's one process both serves the workflow and is the client that submits it, so the kill takes both",
  label: 'RS',
  title: 'Restate',
  colour: '#dc2626',
  configurations: runConfigurations(),
  // Its zombie rows' pause is shorter than anything the server gives a silent endpoint (HELD_BY_THE_FROZEN_ENDPOINT).
  optInHazards: ['zombie-past-timeouts'],
  crashDeviations: [
    {
      points: ['mid-commit'],
      expected: { kind: 'not-reached' },
      why: 'A `ctx.run` result is kept by the Restate server once the SDK has sent it over the invocation’s stream: the write is the server’s, and no code of ours runs inside it.',
    },
  ],
  hazardDeviations: [
    {
      hazard: 'partition',
      variant: 'hardened',
      expected: 'one-writer',
      why: 'The server pushes the invocation to the endpoint over a connection the cut breaks: it retries the invocation at the deployment’s address, where the standby endpoint answers, and replays the journal there; the cut-off endpoint’s `ctx.run` result can no longer be recorded, so it cannot go on to another step. It made no call while cut off and leaves once healed and the run is over. Nothing twice, nothing of it accepted: it stopped acting without leaving.',
    },
    { hazard: 'retry-transient', variant: 'naive', expected: 'recovered', why: NAIVE_RESTATE_RETRIES },
    { hazard: 'retry-exhausted', variant: 'naive', expected: 'looks-stuck', why: NAIVE_RESTATE_RETRIES },
    { hazard: 'retry-permanent', variant: 'naive', expected: 'retried-permanent', why: NAIVE_RESTATE_RETRIES },
    { hazard: 'retry-lost-workers', variant: 'naive', expected: 'recovered', why: NAIVE_RESTATE_RETRIES },
    { hazard: 'retry-lost-workers-exhausted', variant: 'naive', expected: 'looks-stuck', why: NAIVE_RESTATE_RETRIES },
    { hazard: 'two-writers', variant: 'naive', expected: 'one-writer', why: ONE_INVOCATION },
    { hazard: 'zombie', variant: 'naive', expected: 'not-replaced', why: HELD_BY_THE_FROZEN_ENDPOINT },
    { hazard: 'zombie', variant: 'hardened', expected: 'not-replaced', why: HELD_BY_THE_FROZEN_ENDPOINT },
    { hazard: 'zombie-at-effect', variant: 'naive', expected: 'not-replaced', why: HELD_BY_THE_FROZEN_ENDPOINT },
    { hazard: 'zombie-at-effect', variant: 'hardened', expected: 'not-replaced', why: HELD_BY_THE_FROZEN_ENDPOINT },
    { hazard: 'deploy-v1-state', variant: 'naive', expected: 'broke', why: PINNED_SILENT },
    { hazard: 'deploy-v1-state', variant: 'hardened', expected: 'refused-clearly', why: DEPLOYMENT_CHECK_REFUSES },
    { hazard: 'deploy-unknown-format', variant: 'naive', expected: 'broke', why: FOREIGN_APPROVAL_WAITS },
    { hazard: 'deploy-unknown-format', variant: 'hardened', expected: 'broke', why: FOREIGN_APPROVAL_WAITS },
  ],
};
