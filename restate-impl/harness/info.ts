import type { RuntimeInfo } from '@vendor-review/conformance';

/** Measured in test/production.e2e.test.ts: the retry rows of the naive workflow. */
const NAIVE_RESTATE_RETRIES =
  'Restate retries a `ctx.run` that throws anything but a TerminalError, with backoff, by default and with no cap the rows reached: the transient error is ridden out, and the permanent one and the exhausted one are retried for as long as the row watches, with no dead letter and nothing said to anyone (the server counts the attempts: `retry_count`, `last_failure` in sys_invocation).';

/** Measured in test/production.e2e.test.ts (two-writers): a second endpoint of the run does not start a second run. */
const ONE_INVOCATION =
  'A workflow key runs its `run` handler once: the second worker’s submit of the same run is “PreviouslyAccepted”, and the server pushes the one invocation to one endpoint at a time; the records name no endpoint, so the row cannot say which one held it.';

/**
 * Measured in test/production.e2e.test.ts (zombie, zombie-at-effect), with the server's defaults
 * (`restate-server --dump-config`: inactivity-timeout 1m, abort-timeout 10m, HTTP/2 keep-alive 40s
 * + 20s). Also measured once, and not shipped: a service whose inactivity and abort timeouts were
 * 2 s and 1 s had its invocation retried while the endpoint slept, and the retry went to the same
 * frozen process over the same connection.
 */
const HELD_BY_THE_FROZEN_ENDPOINT =
  'The server keeps an invocation with the endpoint it pushed it to until that endpoint answers, its connection breaks, or the service’s inactivity and abort timeouts run out (Restate’s defaults: a minute, then ten): a 12 s freeze breaks nothing, so nobody takes the run over and the woken endpoint finishes it. No mail twice, no late write; the run stood still while its endpoint slept, and the standby endpoint got nothing.';

/** Restate as the harness sees it: no durability modes, a journal kept by its own server. */
export const RESTATE_INFO: RuntimeInfo = {
  name: 'restate',
  label: 'RS',
  title: 'Restate',
  colour: '#d97706',
  configurations: [
    { variant: 'naive', durability: null },
    { variant: 'hardened', durability: null },
    // The same pipeline with fewer boundaries (domain granularity.ts); the crash catalogue keeps to `fine`.
    { variant: 'naive', durability: null, granularity: 'per-requirement' },
    { variant: 'naive', durability: null, granularity: 'coarse' },
    { variant: 'hardened', durability: null, granularity: 'per-requirement' },
    { variant: 'hardened', durability: null, granularity: 'coarse' },
  ],
  hazardDeviations: [
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
  ],
};
