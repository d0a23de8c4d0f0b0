/**
 * The lab's background process, started detached by `pnpm lab up` (never by hand): it owns the
 * world (in this process), PostgreSQL (embedded unless DATABASE_URL) and each server the lab's
 * runtimes declare (always its own, keeping its state in the lab's folder, with its web UI where it
 * has one), and writes `state.json` once they all answer. `pnpm lab down`
 * asks it to stop them (SIGUSR2). If it dies any other way, the infra's own exit hooks and watchers
 * take the servers down with it, so nothing is left behind.
 */
import { writeFileSync } from 'node:fs';
import { isProcessAlive } from '@vendor-review/testbed';
import { parseCli, runCli } from '@vendor-review/worker-io';
import { startLabServers } from './servers.ts';
import { files, LAB_RUNTIMES, labDir, removeState, writeJson } from './state.ts';

const USAGE = `usage: daemon.ts --runtime ${LAB_RUNTIMES.join(',')} --model-latency MS --page-latency MS [--world-port N]
  started by \`pnpm lab up\`; LAB_OWNER_PID (tests): stop once that process is gone`;

runCli('lab daemon', async () => {
  const { values } = parseCli({
    usage: USAGE,
    options: {
      runtime: { type: 'string', default: LAB_RUNTIMES.join(',') },
      'model-latency': { type: 'string', default: '1500' },
      'page-latency': { type: 'string', default: '200' },
      'world-port': { type: 'string', default: '0' },
    },
  });
  const dir = labDir();
  const f = files(dir);
  const runtimes = values.runtime.split(',');
  const log = (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);
  const stops: { what: string; stop: () => Promise<void> }[] = [];
  let stopping: Promise<void> | null = null;
  const stopAll = () =>
    (stopping ??= (async () => {
      removeState(dir); // first: from now on no command takes this lab for up
      for (const s of stops.reverse()) {
        await s.stop().then(
          () => log(`stopped ${s.what}`),
          (err: unknown) => log(`${s.what} did not stop cleanly: ${err instanceof Error ? err.message : String(err)}`),
        );
      }
    })());
  // SIGUSR2 is `lab down`'s orderly stop. SIGTERM/SIGINT/SIGHUP are left to the infra's last-resort
  // hooks, which kill the servers at once: a daemon killed by someone else still leaves nothing.
  process.on('SIGUSR2', () => void stopAll().then(() => process.exit(0)));
  const owner = Number(process.env.LAB_OWNER_PID);
  if (owner > 0) {
    setInterval(() => {
      if (isProcessAlive(owner)) return;
      log(`owner process ${owner} is gone: stopping`);
      void stopAll().then(() => process.exit(0));
    }, 1000);
  }

  try {
    const { state, stops: started } = await startLabServers({
      dir,
      runtimes,
      modelLatencyMs: Number(values['model-latency']),
      pageLatencyMs: Number(values['page-latency']),
      worldPort: Number(values['world-port']),
      log,
    });
    stops.push(...started);
    writeJson(f.state, state);
    log('servers ready');
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    writeFileSync(f.upError, message.replace(/\s*\n\s*/g, ' '));
    log(`could not start: ${message}`);
    await stopAll();
    return 1;
  }
  // The world's server keeps this process alive until a stop.
  await new Promise<never>(() => {});
  return 0;
});
