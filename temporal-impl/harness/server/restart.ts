import type { TemporalHandle, TemporalRestartOptions } from './handle.ts';

/** Where the replacement must listen so clients and workers find it again. */
export interface SamePlace {
  port: number;
  uiPort?: number;
}

const portOf = (address: string) => Number(address.slice(address.lastIndexOf(':') + 1));

/**
 * A dev server the harness started, made restartable: the process ends and `startAgain` starts the
 * same CLI on the same port (and UI port) and the same --db-filename. With a file the new server has
 * every workflow the old one had committed; without one it starts empty, which is the point of the
 * memory hazard. `stop`, `kill` and `pid` always speak for the process running now; restarts run one
 * at a time, and none after stop().
 */
export function restartable(
  first: TemporalHandle,
  startAgain: (at: SamePlace) => Promise<TemporalHandle>,
  dbFilename: string | undefined,
): TemporalHandle {
  let current = first;
  let stopped = false;
  let restarting: Promise<unknown> = Promise.resolve();
  const at: SamePlace = {
    port: portOf(first.address),
    ...(first.uiUrl ? { uiPort: Number(new URL(first.uiUrl).port) } : {}),
  };

  const restartOnce = async (opts: TemporalRestartOptions): Promise<{ downMs: number }> => {
    if (stopped) throw new Error(`temporal: cannot restart the dev server on ${first.address}: it was stopped`);
    const began = Date.now();
    await (opts.how === 'stop' ? current.stop() : current.kill());
    // The server comes back whatever the hook did; the hook's own failure is reported after that.
    const hook = await Promise.resolve()
      .then(() => opts.whileDown?.())
      .then(
        () => null,
        (err: unknown) => ({ err }),
      );
    current = await startAgain(at);
    if (hook) throw hook.err;
    return { downMs: Date.now() - began };
  };

  const handle: TemporalHandle = {
    ...first,
    ...(dbFilename ? { dbFilename } : {}),
    stop: async () => {
      stopped = true;
      await restarting.catch(() => undefined);
      await current.stop();
    },
    kill: async () => {
      await restarting.catch(() => undefined);
      await current.kill();
    },
    restart: (opts: TemporalRestartOptions = {}) => {
      const next = restarting.catch(() => undefined).then(() => restartOnce(opts));
      restarting = next;
      return next;
    },
  };
  Object.defineProperty(handle, 'pid', { get: () => current.pid, enumerable: true });
  return handle;
}
