import { InfraError, startPostgres, startTemporal } from '@vendor-review/testbed';
import { UsageError } from '@vendor-review/worker-io';
import { worldClient } from '@vendor-review/world';
import { runtimeInfos, runtimeModule, type StartedRuntime } from '../runtimes.ts';
import { LAB_RUNTIMES, type LabRuntime, type LabState } from './state.ts';

/**
 * A runtime for one lab command, through the same registry `pnpm compare` uses (its tables, its
 * prebuilt worker bundles, its adapter), pointed at the lab's servers. Each server is asked first,
 * so a lab whose Temporal died says so in one line instead of failing somewhere inside a client.
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

async function checkServers(state: LabState, needsTemporal: boolean): Promise<void> {
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
  if (needsTemporal && !state.temporal)
    throw new UsageError(
      `this lab was started without Temporal (pnpm lab up --runtime ${state.runtimes.join(',')}): ${RESTART}`,
      { seeHelp: false },
    );
}

export async function openRuntime(state: LabState, name: LabRuntime): Promise<StartedRuntime> {
  const module = await runtimeModule(name);
  const needsTemporal = Boolean(module.needs.temporal);
  await checkServers(state, needsTemporal);
  let temporal = null;
  if (needsTemporal && state.temporal) {
    const { address, namespace, uiUrl } = state.temporal;
    // The lab's server, reached the way any user's Temporal is: this also proves it answers.
    const server = await startTemporal({
      env: { TEMPORAL_ADDRESS: address, TEMPORAL_NAMESPACE: namespace },
      log: () => {},
      connectTimeoutMs: 3000,
      namespaceWaitMs: 0,
    }).catch((err: unknown) => {
      if (!(err instanceof InfraError)) throw err;
      throw new UsageError(`the lab's Temporal server at ${address} does not answer (${reason(err)}): ${RESTART}`, {
        seeHelp: false,
      });
    });
    temporal = { ...server, uiUrl };
  }
  return module.start({ worldUrl: state.worldUrl, databaseUrl: state.databaseUrl, temporal });
}
