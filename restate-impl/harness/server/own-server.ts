import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AddressInUseError, onProcessEnd, startOnSamePort, type InfraLog } from '@vendor-review/testbed';
import { restateServerBinary } from './binary.ts';
import { restartable, type RestartableRestate } from './restart.ts';
import { startRestateProcess, type RestateProcess } from './server.ts';

export interface OwnRestate extends RestartableRestate {
  binary: string;
  /** Where its state is: under the caller's data dir, or a temporary directory removed at stop. */
  baseDir: string;
  temporary: boolean;
}

/**
 * A restate-server of the harness's own, from npm, on loopback: first on ports it picks itself,
 * then, on each restart, on those same ports (through `startOnSamePort`: a port taken while it was
 * down is waited for, never moved) and the same base dir. Its state is always on disk, so a
 * restart keeps every deployment and invocation; in a temporary directory unless `dataDir` is given.
 */
export async function startOwnRestate(o: { log: InfraLog; dataDir?: string }): Promise<OwnRestate> {
  const binary = restateServerBinary();
  const temporary = !o.dataDir;
  const baseDir = o.dataDir
    ? path.join(o.dataDir, 'restate')
    : await mkdtemp(path.join(os.tmpdir(), 'vendor-review-restate-'));
  await mkdir(baseDir, { recursive: true });
  const running: { server?: RestartableRestate } = {};
  // A temporary directory goes with the harness however it ends (the watcher of each process
  // covers a SIGKILL of the harness); the server is killed first so it writes nothing after.
  const forgetDir = temporary
    ? onProcessEnd(() => {
        running.server?.killNow();
        rmSync(baseDir, { recursive: true, force: true });
      })
    : () => undefined;

  const start = (ports?: RestateProcess['ports']) =>
    startRestateProcess({
      binary,
      baseDir,
      log: o.log,
      ...(ports ? { ports } : {}),
      ...(temporary ? { removeDirWithParent: baseDir } : {}),
    });
  let first: RestateProcess;
  try {
    first = await start();
  } catch (err) {
    forgetDir();
    if (temporary) await rm(baseDir, { recursive: true, force: true });
    throw err;
  }
  o.log(
    `restate: server ${first.version ?? '(version unknown)'} (restate-server from npm, ${binary}) ` +
      `ingress ${first.ingressUrl}, admin ${first.adminUrl}, state in ${baseDir}${temporary ? ' (temporary)' : ''}, pid ${first.pid}`,
  );

  const r = restartable(first, async (ports) => {
    try {
      return await start(ports);
    } catch (err) {
      if (!(err instanceof AddressInUseError)) throw err;
      // Any of the three may be held; the line saying so while it is waited for names that one.
      return startOnSamePort(err.port, () => start(ports), { what: 'restate: server', log: o.log });
    }
  });
  running.server = r;
  return {
    ...r,
    binary,
    baseDir,
    temporary,
    stop: async () => {
      await r.stop();
      forgetDir();
      if (temporary) await rm(baseDir, { recursive: true, force: true });
    },
  };
}
