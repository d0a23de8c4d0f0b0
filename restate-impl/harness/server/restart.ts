import type { RestatePorts, RestateProcess } from './server.ts';

export interface RestateRestartOptions {
  /** How the running server ends: `kill` (SIGKILL, a crash; the default) or `stop` (SIGTERM, graceful). */
  how?: 'kill' | 'stop';
  /** Runs while no server listens (e.g. let a frozen worker go on, so its next call meets the outage). */
  whileDown?: () => Promise<void> | void;
}

/** A server of the harness's own that restarts where its clients look: same ports, same base dir. */
export interface RestartableRestate {
  readonly first: RestateProcess;
  /** The process running now, or the last one (gone) while down or after stop. */
  pid(): number;
  restart(o?: RestateRestartOptions): Promise<{ downMs: number }>;
  /** Ends the process running now; no restart after it. */
  stop(): Promise<void>;
  /** SIGKILL to the process running now, without waiting (an exit hook's). */
  killNow(): void;
}

/**
 * The process ends, `whileDown` runs, and `startAgain` starts the same binary on the same three
 * ports and base dir, so every deployment and invocation the server had committed is there again.
 * `pid` and `stop` always speak for the process running now; restarts run one at a time, none after stop().
 */
export function restartable(
  first: RestateProcess,
  startAgain: (ports: RestatePorts) => Promise<RestateProcess>,
): RestartableRestate {
  let current: RestateProcess | null = first;
  let lastPid = first.pid;
  let stopped = false;
  let restarting: Promise<unknown> = Promise.resolve();

  const restartOnce = async (o: RestateRestartOptions): Promise<{ downMs: number }> => {
    if (stopped || !current) {
      throw new Error(`restate: cannot restart the server on ${first.ingressUrl}: it was stopped`);
    }
    const began = Date.now();
    await (o.how === 'stop' ? current.stop() : current.kill());
    current = null;
    // The server comes back whatever the hook did; the hook's own failure is reported after that.
    const hook = await Promise.resolve()
      .then(() => o.whileDown?.())
      .then(
        () => null,
        (err: unknown) => ({ err }),
      );
    current = await startAgain(first.ports);
    lastPid = current.pid;
    const downMs = Date.now() - began;
    if (hook) throw hook.err;
    return { downMs };
  };

  return {
    first,
    pid: () => lastPid,
    killNow: () => current?.killNow(),
    restart: (o = {}) => {
      const next = restarting.catch(() => undefined).then(() => restartOnce(o));
      restarting = next;
      return next;
    },
    stop: async () => {
      stopped = true;
      await restarting.catch(() => undefined);
      await current?.stop();
      current = null;
    },
  };
}
