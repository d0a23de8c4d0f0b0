import { runConfigurations, type RuntimeInfo } from '@vendor-review/conformance';

/**
 * Measured in test/production.e2e.test.ts and test/recovery.e2e.test.ts: every DBOS workflow row
 * carries an owner token (owner_xid). A worker that starts or dequeues the workflow takes it; a
 * step whose worker no longer holds it is not recorded ("no longer owned by this execution"), and
 * that worker only waits for the owner's outcome.
 */
const DBOS_OWNER_TOKEN =
  'DBOS records a step only for the execution that owns the workflow (its owner token, taken by whoever started or dequeued it last): a second worker starting the same workflow id attaches to the first instead of running it, and a worker whose run was taken over has its late step refused and waits for the owner’s outcome. The fence is the runtime’s, not the variant’s.';

const DBOS_TAKEOVER_RESENDS =
  'The takeover is fenced (the woken worker’s step is refused), but the step it was frozen in had already sent the mail; the new owner runs the unrecorded step again, and without a key the mailer accepts the second copy.';

const DBOS_NAIVE_DIES_OF_SIGTERM =
  'The naive worker has no SIGTERM handler and dies wherever it is; the deploy sends the signal once the world has answered its model call. Repeated-paid-calls: it was still in its step, which its successor runs again (paid twice). Duplicated-effects: it had gone on and sent an effect its journal had not recorded, which its successor sends again without a key (measured on a loaded machine). The row’s runs say how often each came.';

const DBOS_RETRIES_ITS_DATABASE =
  'DBOS retries its own system-database calls on a lost connection (withDbRetry), so a step that finished while PostgreSQL was restarting is recorded once the server is back instead of being run again: nothing repeats, in both variants (measured in three runs, 0.2 to 1.5 s down).';

/**
 * Measured in test/production.e2e.test.ts (the deploy drill in drills.ts): DBOS ties a workflow to
 * the application version it was started under and recovers it only in a process of that version.
 */
const DBOS_VERSION_SILENT =
  'DBOS recovers a workflow only in a process of the application version it was started under, and says nothing to one of another version: today’s naive worker (DBOS’s own version, a hash of the code) attaches to last release’s workflow and waits; the run stays PENDING, no call is made, no error is raised, until a worker of the recorded version comes.';

const DBOS_VERSION_CHECK =
  'DBOS has no way to run last release’s journal under today’s version (recovery matches the recorded version exactly), so the hardened version check refuses it clearly and leaves the run to a worker of its version: DBOS’s way across a deploy is to keep the previous version’s workers until their runs have drained, not to migrate.';

const DBOS_READS_BY_SERIALIZATION =
  'DBOS records the serialization’s name beside every value it keeps and reads a value only with a serializer of that name: an approval in a format it does not have ends the workflow in ERROR (“Value deserialization type … is not available”) in both variants. The check is the runtime’s, not the variant’s.';

/** DBOS Transact as the harness sees it: no durability modes, a step journal in PostgreSQL. */
export const DBOS_INFO: RuntimeInfo = {
  name: 'dbos',
  startCall:
    'the worker, at DBOS.startWorkflow (harness/worker-run.ts): the process that starts the workflow is the one that runs it',
  label: 'DB',
  title: 'DBOS',
  colour: '#059669',
  configurations: runConfigurations(),
  crashDeviations: [
    {
      points: ['mid-commit'],
      expected: { kind: 'not-reached' },
      why: 'DBOS writes a step’s output to its system database inside `runStep`, on its own connection: no code of ours runs inside that write.',
    },
  ],
  hazardDeviations: [
    {
      hazard: 'partition',
      variant: 'hardened',
      expected: 'one-writer',
      why: 'DBOS keeps the step journal in the database the worker was cut off from: the cut-off worker cannot record the model’s answer or start its next step, and waits on its database calls; the standby worker recovers the workflow from its journal meanwhile. The cut-off worker made no call while cut off and leaves once healed and the run is over. Nothing twice, nothing of it accepted: it stopped acting without leaving.',
    },
    { hazard: 'two-writers', variant: 'naive', expected: 'one-writer', why: DBOS_OWNER_TOKEN },
    { hazard: 'zombie', variant: 'naive', expected: 'fenced-by-runtime', why: DBOS_OWNER_TOKEN },
    { hazard: 'zombie', variant: 'hardened', expected: 'fenced-by-runtime', why: DBOS_OWNER_TOKEN },
    { hazard: 'zombie-at-effect', variant: 'naive', expected: 'duplicated-effects', why: DBOS_TAKEOVER_RESENDS },
    { hazard: 'zombie-at-effect', variant: 'hardened', expected: 'fenced-by-runtime', why: DBOS_OWNER_TOKEN },
    { hazard: 'restart-postgres', variant: 'naive', expected: 'rode-it-out', why: DBOS_RETRIES_ITS_DATABASE },
    {
      hazard: 'rolling-deploy',
      variant: 'naive',
      expected: 'repeated-paid-calls',
      alsoSeen: ['duplicated-effects'],
      why: DBOS_NAIVE_DIES_OF_SIGTERM,
    },
    { hazard: 'deploy-v1-state', variant: 'naive', expected: 'broke', why: DBOS_VERSION_SILENT },
    { hazard: 'deploy-v1-state', variant: 'hardened', expected: 'refused-clearly', why: DBOS_VERSION_CHECK },
    {
      hazard: 'deploy-unknown-format',
      variant: 'naive',
      expected: 'refused-clearly',
      why: DBOS_READS_BY_SERIALIZATION,
    },
  ],
};
