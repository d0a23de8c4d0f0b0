/**
 * Temporal's server as the harness starts and reaches it (moved here from the test bed: a runtime's
 * server belongs to its package). `startTemporal` finds the user's own (TEMPORAL_ADDRESS, a profile
 * of the Temporal config file) or starts a dev server from the CLI; `TEMPORAL_SERVER` is what the
 * runtime module declares.
 */
export { startTemporal, WAYS_TO_A_CLI, type SdkDevServer, type StartTemporalOptions } from './dev-server.ts';
export type { TemporalHandle, TemporalRestartOptions } from './handle.ts';
export { resolveTemporalCli } from './cli.ts';
export {
  isTemporalConfigVariable,
  temporalSettings,
  temporalWorkerEnv,
  TEMPORAL_CONFIG_VARIABLES,
  type TemporalConnectionOptions,
  type TemporalSettings,
} from './config.ts';
export { InfraError } from '@vendor-review/testbed';
export { TEMPORAL_SERVER, type TemporalServer } from './spec.ts';
