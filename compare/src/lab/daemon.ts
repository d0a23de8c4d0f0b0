/**
 * The lab's background process, started detached by `pnpm lab up` (never by hand): it owns the
 * world (in this process), PostgreSQL (embedded unless DATABASE_URL) and each server the lab's
 * runtimes declare (always its own, keeping its state in the lab's folder, with its web UI where it
 * has one), and writes `state.json` once they all answer. `pnpm lab down`
 * asks it to stop them (SIGUSR2). If it dies any other way, the infra's own exit hooks and watchers
 * take the servers down with it, so nothing is left behind.
 */
import { writeFileSync } from 'node:fs';
import { serversOf, startServers } from '@vendor-review/conformance';
import { isProcessAlive } from '@vendor-review/testbed';
import { parseCli, runCli } from '@vendor-review/worker-io';
import { runtimeModules } from '../runtimes.ts';
import { files, LAB_RUNTIMES, labDir, removeState, writeJson, type LabState } from './state.ts';

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
    const modelLatencyMs = Number(values['model-latency']);
    const pageLatencyMs = Number(values['page-latency']);
    const modules = await runtimeModules(runtimes);
    // The same bring-up as every other tool's, with the lab's own settings: the world slow enough
    // to kill a worker mid-call, and servers of its own (settings meant for a user's server must not
    // redirect them) that keep their state in the lab's folder and show their web UI.
    const servers = await startServers({
      modules,
      env: process.env,
      log,
      world: { port: Number(values['world-port']), modelLatencyMs, pageLatencyMs },
      servers: { own: true, ui: true, dataDir: f.data },
    });
    stops.push(...servers.stops);
    const { world, postgres: pg } = servers;
    const titles = new Map(serversOf(modules).map((spec) => [spec.id, spec.title]));
    log(`world: ${world.url} (model latency ${modelLatencyMs} ms, page latency ${pageLatencyMs} ms)`);
    const state: LabState = {
      daemonPid: process.pid,
      startedAt: Date.now(),
      runtimes,
      worldUrl: world.url,
      databaseUrl: pg.url,
      postgres: pg.kind,
      servers: Object.fromEntries(
        [...servers.servers].map(([id, s]) => [
          id,
          {
            title: titles.get(id)!,
            connection: s.connection,
            description: s.description,
            uiUrl: s.uiUrl,
            pid: s.pid(),
          },
        ]),
      ),
      modelLatencyMs,
      pageLatencyMs,
    };
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
