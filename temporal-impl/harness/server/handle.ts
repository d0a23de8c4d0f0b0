import type { TemporalConnectionOptions } from './config.ts';

/** A Temporal server as the harness reaches it: its own dev server, one the SDK downloaded, or the user's. */
export interface TemporalHandle {
  /** `host:port` of the frontend gRPC service. */
  address: string;
  namespace: string;
  /** Set when a CLI dev server was started with `ui: true`. */
  uiUrl?: string;
  kind: 'external' | 'cli' | 'sdk-download';
  /** How a client connects (address, TLS, API key, gRPC metadata): pass it to `Connection.connect`. */
  connection: TemporalConnectionOptions;
  /** The environment a worker process needs to connect the same way (its envconfig reads it). */
  workerEnv: Record<string, string>;
  /** The server's version as it reports it (GetSystemInfo), or null when it does not say. */
  serverVersion: string | null;
  /** Where the settings came from ("TEMPORAL_ADDRESS", "profile cloud of …/temporal.toml"); for ours, what started it. */
  source: string;
  /** TLS on, an API key sent: for the report (never the key). */
  tls: boolean;
  apiKey: boolean;
  /** The dev server's process id (kind `cli` only). */
  pid?: number;
  /** Graceful stop (SIGTERM, SIGKILL after 10 s); resolves once the process is gone. No-op for `external`. */
  stop(): Promise<void>;
  /**
   * SIGKILL, resolves once the process is gone: a restart on the same `dbFilename` then shows what
   * survived an abrupt death. Only kind `cli` has a process to kill; the others reject.
   */
  kill(): Promise<void>;
  /**
   * Kind `cli` only (the harness owns that process; a server it does not own is not its to restart):
   * the process ends, `whileDown` runs, and the same CLI starts again on the same port and
   * `dbFilename`; resolves once it serves the namespace, with how long it was gone. See restart.ts.
   */
  restart?(opts?: TemporalRestartOptions): Promise<{ downMs: number }>;
  /** The dev server's SQLite file (kind `cli`), or undefined when it keeps everything in memory and a restart loses it. */
  dbFilename?: string;
}

export interface TemporalRestartOptions {
  /** How the running server ends: `kill` (SIGKILL, a crash; the default) or `stop` (SIGTERM, graceful). */
  how?: 'kill' | 'stop';
  /** Runs while no server listens (e.g. let a frozen worker go on, so its next call meets the outage). */
  whileDown?: () => Promise<void> | void;
}
