import type { InfraLog } from '@vendor-review/testbed';

/**
 * A server a runtime brings besides the world and PostgreSQL (the store every runtime is given):
 * Temporal's frontend, Restate's. Its runtime module declares it; the tools (compare, chaos, bench,
 * lab) start, check, restart and stop it only through this, and name it only by what it says of
 * itself. Runtimes that need the same server declare the same spec, and one is started for them all.
 *
 * `C` is what a runtime and its workers are given to reach it (an address, a namespace, the
 * environment a worker connects with): plain data, so the lab can keep it between commands.
 */
export interface ServerSpec<C = unknown> {
  /** Unique among servers, used as a key ("temporal"); never shown. */
  readonly id: string;
  /** In a sentence: "the Temporal server". */
  readonly title: string;
  /** In a list of versions: "Temporal server". */
  readonly label: string;
  /**
   * The environment variables it reads (the user's way to point the harness at a server of their
   * own, its CLI): the report says which were in force, and none reaches a worker unless the
   * runtime passes it on. `secret`: shown as `***`.
   */
  readonly variables: { reads(name: string): boolean; secret(name: string): boolean };
  /**
   * The user's own where the environment names one, else one of the harness's own. One of its own
   * binds port 0 where it can; where it must be given a port, it starts through the test bed's
   * `startOnFreePort`, so that a port taken between the pick and the bind costs a retry on a fresh
   * one, not the run (and a restart through `startOnSamePort`, since its clients know the port).
   */
  start(o: ServerStartOptions): Promise<StartedServer<C>>;
  /** Rejects, in one line, when a server reached through `connection` does not answer (the lab's later commands). */
  check(connection: C): Promise<void>;
}

export interface ServerStartOptions {
  /** Where the user's settings for it are read. */
  env: NodeJS.ProcessEnv;
  log: InfraLog;
  /**
   * A directory of its own for its state: given, a restart of a server the harness owns loses
   * nothing; absent, it may keep its state in memory (as its dev server does by default).
   */
  dataDir?: string;
  /** Its web UI too, where it has one (the lab). */
  ui?: boolean;
  /** Always one of the harness's own, whatever the environment names (the lab's, the restart hazards'). */
  own?: boolean;
}

export interface StartedServer<C = unknown> {
  readonly connection: C;
  /** For the report's infrastructure lines: "dev server (Temporal CLI) 127.0.0.1:7233, namespace default, server 1.32.0". */
  readonly description: string;
  /** Its version as it reports it, or null when it does not say. */
  readonly version: string | null;
  readonly uiUrl: string | null;
  /** The harness started it (it may restart and stop it), or it is the user's own. */
  readonly owned: boolean;
  /**
   * Why a restart would lose what it holds (its state is in memory), or null when it keeps it
   * (a restart hazard and a chaos strike restart only a server that keeps it).
   */
  readonly forgetsOnRestart: string | null;
  /** Its process on this machine, for CPU accounting; null when it runs elsewhere. */
  pid(): number | null;
  /** How long its start took, ms, as the bring-up timed it (`--profile` shows it); absent when started elsewhere. */
  startMs?: number;
  /** Owned only: it ends (SIGKILL by default), `whileDown` runs, and it comes back where its clients look. */
  restart?(o?: ServerRestartOptions): Promise<{ downMs: number }>;
  /** Stops what the harness started; leaves a user's server alone. */
  stop(): Promise<void>;
}

export interface ServerRestartOptions {
  /** `kill` (SIGKILL, a crash; the default) or `stop` (graceful). */
  how?: 'kill' | 'stop';
  /** Runs while nothing answers (e.g. let a frozen worker go on, so its next call meets the outage). */
  whileDown?: () => Promise<void> | void;
}

/** What a runtime's `start` and its workers are given of the servers it declared, by server id. */
export type ServerConnections = Readonly<Record<string, unknown>>;

/** The connection to `spec` among those a runtime was given; a runtime that did not get it is a wiring mistake. */
export function connectionTo<C>(servers: ServerConnections, spec: ServerSpec<C>): C {
  if (!(spec.id in servers)) throw new Error(`${spec.title} was not started for this runtime`);
  return servers[spec.id] as C;
}

/** The distinct servers a set of runtimes declares, in the order first declared. */
export function serversOf(modules: readonly { servers?: readonly ServerSpec[] }[]): ServerSpec[] {
  const byId = new Map<string, ServerSpec>();
  for (const m of modules) for (const s of m.servers ?? []) if (!byId.has(s.id)) byId.set(s.id, s);
  return [...byId.values()];
}
