export * from './points.ts';
export * from './plan.ts';
export { armCrashPlan, isArmed, reach } from './act.ts';
export { watchCall, type CallWatch } from './calls.ts';
export { installHttpWatch } from './http.ts';
export { stepBegins, startCalled, commitWritten, runWaits, waitArmed, watchForWait } from './sites.ts';
export { installCrashPoints, CRASH_PLAN_ENV, START_AGAIN_ENV } from './install.ts';
export { busyBetween, cpuTimes, type CpuTimes } from './cpu.ts';
