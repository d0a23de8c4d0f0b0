import { DefaultLogger, makeTelemetryFilterString, Runtime, type LogLevel } from '@temporalio/worker';

let installed = false;

/**
 * The SDK's runtime for this process, once: its own messages and core's at `level` and above, all
 * through one logger on stderr. Without `forward`, core (native code) prints its lines straight to
 * stdout, past any logger, where a worker's or a benchmark's own output goes.
 */
export function installRuntime(level: LogLevel = 'WARN'): void {
  if (installed) return;
  installed = true;
  Runtime.install({
    logger: new DefaultLogger(level),
    telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: level }), forward: {} } },
  });
}
