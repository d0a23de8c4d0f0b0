import { serversOf, startServers, type Servers } from '@vendor-review/conformance';
import { runtimeModules } from '../runtimes.ts';
import { files, type LabState } from './state.ts';

export interface LabServerOptions {
  dir: string;
  runtimes: string[];
  modelLatencyMs: number;
  pageLatencyMs: number;
  worldPort: number;
  log: (line: string) => void;
}

/**
 * The lab's servers: the same bring-up as every other tool's, with the lab's own settings: the
 * world slow enough to kill a worker mid-call, and servers of its own (settings meant for a user's
 * server must not redirect them) that keep their state in the lab's folder and show their web UI.
 * Returns the state the lab's later commands read, and what to stop.
 */
export async function startLabServers(o: LabServerOptions): Promise<{ state: LabState; stops: Servers['stops'] }> {
  const modules = await runtimeModules(o.runtimes);
  const servers = await startServers({
    modules,
    env: process.env,
    log: o.log,
    world: { port: o.worldPort, modelLatencyMs: o.modelLatencyMs, pageLatencyMs: o.pageLatencyMs },
    servers: { own: true, ui: true, dataDir: files(o.dir).data },
  });
  const { world, postgres: pg } = servers;
  const titles = new Map(serversOf(modules).map((spec) => [spec.id, spec.title]));
  o.log(`world: ${world.url} (model latency ${o.modelLatencyMs} ms, page latency ${o.pageLatencyMs} ms)`);
  const state: LabState = {
    daemonPid: process.pid,
    startedAt: Date.now(),
    runtimes: o.runtimes,
    worldUrl: world.url,
    databaseUrl: pg.url,
    postgres: pg.kind,
    servers: Object.fromEntries(
      [...servers.servers].map(([id, s]) => [
        id,
        { title: titles.get(id)!, connection: s.connection, description: s.description, uiUrl: s.uiUrl, pid: s.pid() },
      ]),
    ),
    modelLatencyMs: o.modelLatencyMs,
    pageLatencyMs: o.pageLatencyMs,
  };
  return { state, stops: servers.stops };
}
