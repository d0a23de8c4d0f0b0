import { armCrashPlan } from './act.ts';
import { anyCallPointArmed } from './calls.ts';
import { installHttpWatch } from './http.ts';
import { CrashPlanError, parseCrashPlan } from './plan.ts';

/**
 * The environment variable a harness arms a worker with. Only the instrument reads it: the app's
 * code never sees a plan.
 */
export const CRASH_PLAN_ENV = 'CRASH_PLAN';

/**
 * Set (to 1) for the worker that resumes a cell killed at `start-call`: where its harness makes the
 * start call, it makes it again with the same id even when the run exists, to show whether that
 * makes a second run.
 */
export const START_AGAIN_ENV = 'START_AGAIN';

/**
 * Arms this process with the plan in `env` and lays the call sites over its HTTP clients when a
 * call point is armed (an unarmed worker runs untouched). A plan that names an unknown point is
 * one line on stderr and exit 2, before the app starts.
 */
export function installCrashPoints(env: NodeJS.ProcessEnv = process.env): void {
  try {
    armCrashPlan(parseCrashPlan(env[CRASH_PLAN_ENV]));
  } catch (err) {
    if (!(err instanceof CrashPlanError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
  if (anyCallPointArmed()) installHttpWatch();
}
