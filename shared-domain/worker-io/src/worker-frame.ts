import type { Ports } from '@vendor-review/pipeline';
import { createHttpPorts, type HttpPortsOptions } from './adapters/index.ts';
import { StepGate } from './step-gate.ts';
import { stepTrace, traceWanted, type StepTrace } from './step-trace.ts';

/**
 * What every runtime's worker sets up the same way around its own composition.
 */

/** The line a worker prints about itself: `[worker A pid 4242] …`, which the lab and the tests read. */
export function workerLine(worker: string, text: string): void {
  process.stdout.write(`[worker ${worker} pid ${process.pid}] ${text}\n`);
}

/**
 * The worker's four ports over HTTP and, for a person watching (TRACE_STEPS, `pnpm lab worker`),
 * the trace that prints every step and call, so that the last line says where it died.
 */
export function workerPorts(
  worker: string,
  opts: HttpPortsOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): { ports: Ports; trace: StepTrace | null } {
  const trace = traceWanted(env) ? stepTrace((runId, text) => workerLine(worker, `run ${runId}: ${text}`)) : null;
  const ports = createHttpPorts(opts);
  return { ports: trace ? trace.ports(ports) : ports, trace };
}

/**
 * A hardened worker asked to stop (SIGTERM) lets the steps in flight finish and be recorded by its
 * runtime, then leaves the run to its successor; a naive one dies of the signal, as Node does.
 */
export function leaveAfterStepsInFlight(gate: StepGate | null): void {
  if (!gate) return;
  process.once('SIGTERM', () => {
    void gate.close().then(() => {
      process.stderr.write('SIGTERM: the steps in flight are journaled; leaving the run to my successor\n');
      process.exit(0);
    });
  });
}

/**
 * The gate a worker's hardened steps pass through; when it drains, a SIGTERM lets the steps in
 * flight finish first (leaveAfterStepsInFlight), and otherwise the process dies of the signal.
 */
export function stepGate(drainOnSigterm: boolean): StepGate {
  const gate = new StepGate();
  leaveAfterStepsInFlight(drainOnSigterm ? gate : null);
  return gate;
}
