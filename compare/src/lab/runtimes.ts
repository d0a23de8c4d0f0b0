import { startPostgres } from '@vendor-review/testbed';
import { UsageError } from '@vendor-review/worker-io';
import { worldClient } from '@vendor-review/world';
import { runtimeInfos, runtimeModule, type StartedRuntime } from '../runtimes.ts';
import { LAB_RUNTIMES, type LabRuntime, type LabState } from './state.ts';

/**
 * A runtime for one lab command, through the same registry `pnpm compare` uses (its tables, its
 * prebuilt worker bundles, its adapter), pointed at the lab's servers.
 */
const TITLES = new Map((await runtimeInfos(LAB_RUNTIMES)).map((info) => [info.name, info.title]));

/** For people: the runtime's title, as its module gives it. */
export const titleOf = (name: LabRuntime): string => TITLES.get(name) ?? name;

export function labRuntime(name: string | undefined): LabRuntime {
  if (!name) throw new UsageError(`name a runtime: one of ${LAB_RUNTIMES.join(', ')}`);
  if (!LAB_RUNTIMES.includes(name))
    throw new UsageError(`unknown runtime "${name}": the lab has ${LAB_RUNTIMES.join(', ')}`);
  return name;
}

const reason = (err: unknown) => (err instanceof Error ? err.message : String(err)).replace(/\s*\n\s*/g, ' ');
const RESTART = 'restart the lab: pnpm lab down, then pnpm lab up';

async function checkServers(state: LabState): Promise<void> {
  await worldClient(state.worldUrl)
    .health()
    .catch((err: unknown) => {
      throw new UsageError(`the lab's world at ${state.worldUrl} does not answer (${reason(err)}): ${RESTART}`, {
        seeHelp: false,
      });
    });
  await startPostgres({ env: { DATABASE_URL: state.databaseUrl }, log: () => {} }).catch((err: unknown) => {
    throw new UsageError(`the lab's PostgreSQL does not answer (${reason(err)}): ${RESTART}`, { seeHelp: false });
  });
}

export async function openRuntime(state: LabState, name: LabRuntime): Promise<StartedRuntime> {
  const module = await runtimeModule(name);
  await checkServers(state);
  // Each server the runtime declares, as the lab started it, asked first so that a lab whose server
  // died says so in one line instead of failing somewhere inside a client.
  const servers: Record<string, unknown> = {};
  for (const spec of module.servers ?? []) {
    const kept = state.servers[spec.id];
    if (!kept)
      throw new UsageError(
        `this lab was started without ${spec.title} (pnpm lab up --runtime ${state.runtimes.join(',')}): ${RESTART}`,
        { seeHelp: false },
      );
    await spec.check(kept.connection).catch((err: unknown) => {
      throw new UsageError(
        `${spec.title} of the lab (${kept.description}) does not answer (${reason(err)}): ${RESTART}`,
        {
          seeHelp: false,
        },
      );
    });
    servers[spec.id] = kept.connection;
  }
  return module.start({ worldUrl: state.worldUrl, databaseUrl: state.databaseUrl, servers });
}
