import { createHttpPorts } from '@vendor-review/worker-io';
import { type Ports } from '@vendor-review/pipeline';
import type { BenchEnv, StartedRuntime } from '@vendor-review/conformance';
import { startInfra, type Infra } from '../infra.ts';
import type { Plan } from './plan.ts';
import { loadBenched, type Benched } from './benched.ts';

/**
 * Everything the measurements share, brought up once: the infrastructure `pnpm compare` uses (the
 * world, PostgreSQL, the servers the runtimes declare, each runtime started from its
 * module), the world's latency set to zero (the steps' own waiting would hide what the runtimes
 * cost), and each runtime's bench. Worker bundles are named by a hash of their sources and
 * older builds are kept for a day (worker-bundle.ts), so a rebuild elsewhere in the tree during a
 * run does not pull the code from under a worker started later.
 */
export interface BenchContext {
  infra: Infra;
  plan: Plan;
  benched: Benched[];
  /** What each bench is given. */
  env: BenchEnv;
  ports: Ports;
  log: (line: string) => void;
  /** A runtime as the infrastructure started it (default settings). */
  started(b: Benched): StartedRuntime;
}

/** The world answering at once: what the runtimes cost, not what the steps wait for. */
export const WORLD_LATENCY = { modelLatencyMs: 0, pageLatencyMs: 0 };
/** The world's own defaults (a model that takes a while): where an activity or a lease must outlast a step. */
export const WORLD_DEFAULT_LATENCY = { modelLatencyMs: 150, pageLatencyMs: 0 };
/** A model call as long as a real one: a busy worker must keep its lease or heartbeat alive through it. */
export const WORLD_SLOW_MODEL = { modelLatencyMs: 2000, pageLatencyMs: 0 };

export async function configureWorld(worldUrl: string, latency = WORLD_LATENCY): Promise<void> {
  const res = await fetch(`${worldUrl}/__config`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(latency),
  });
  if (!res.ok) throw new Error(`the world refused its latency settings: HTTP ${res.status}`);
}

export async function openContext(o: {
  plan: Plan;
  runtimes: string[];
  log: (line: string) => void;
}): Promise<{ ctx: BenchContext; close(): Promise<void> }> {
  const benched = await loadBenched(o.runtimes);
  const infra = await startInfra({ runtimes: o.runtimes, log: o.log });
  try {
    await configureWorld(infra.worldUrl);
    const ports = createHttpPorts({ worldUrl: infra.worldUrl });
    const ctx: BenchContext = {
      infra,
      plan: o.plan,
      benched,
      ports,
      log: o.log,
      env: {
        worldUrl: infra.worldUrl,
        databaseUrl: infra.databaseUrl,
        servers: infra.connections,
        ports,
        preset: o.plan.preset,
        log: o.log,
      },
      started(b) {
        const s = infra.runtimes.get(b.info.name);
        if (!s) throw new Error(`${b.info.title} was not started`);
        return s;
      },
    };
    return { ctx, close: () => infra.teardown() };
  } catch (err) {
    await infra.teardown();
    throw err;
  }
}
