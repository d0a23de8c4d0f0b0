/**
 * The worker the harness runs for a cell: src/launch.ts driven for one run (worker-run.ts), with
 * the crash points laid over it from outside. The instrument is installed first (it reads CRASH_PLAN; the calls to the world are
 * watched at the HTTP client); src/ does nothing on import, so none of it has run before.
 *
 * - A step beginning (`first-step`, `boundary`): DBOS has no hook before a step's code (no
 *   interceptor; its tracer's span starts before the journal is read, also for a step it only
 *   hands back, and cannot be awaited), so the worker's `wrapStep` option awaits the instrument
 *   inside `DBOS.runStep`, before the step's code.
 * - The wait for a person (`awaiting-approval`): read from DBOS's own record, the phase event the
 *   workflow publishes (STATUS_EVENT) of the PENDING workflows recorded under this executor id.
 */
import { DBOS } from '@dbos-inc/dbos-sdk';
import { installCrashPoints, stepBegins, watchForWait } from '@vendor-review/instrument';
import { runCli } from '@vendor-review/worker-io';
import { STATUS_EVENT, type PhaseEvent, type StepWrapper } from '../src/workflow.ts';
import { runOneRun } from './worker-run.ts';

installCrashPoints();

const beginsFirst: StepWrapper = async (step, body) => {
  await stepBegins(step);
  return body();
};

/** The runs this worker serves that wait for their approval; nothing until DBOS has launched. */
async function waitingRuns(): Promise<string[]> {
  const pending = await DBOS.listWorkflows({ executorId: DBOS.executorID, status: 'PENDING' });
  const phases = await Promise.all(
    pending.map(async (wf) => ({
      id: wf.workflowID,
      phase: await DBOS.getEvent<PhaseEvent>(wf.workflowID, STATUS_EVENT, { timeoutSeconds: 0 }),
    })),
  );
  return phases.filter((p) => p.phase === 'awaiting-approval').map((p) => p.id);
}

watchForWait(waitingRuns);
runCli('dbos worker', () => runOneRun({ wrapStep: beginsFirst }));
