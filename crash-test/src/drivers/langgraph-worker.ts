import { resolve } from 'node:path';
import { writeEvent } from '../events.ts';
import type { LangGraphJob } from '../job.ts';
import { graphOf, importUserModule, langGraphShape, SHAPES } from '../load-app.ts';
import { importSdk } from '../resolve-sdk.ts';
import { stepBegins } from '../site.ts';

type Graph = Record<string, (...a: unknown[]) => Promise<unknown>>;
interface Snapshot {
  values: unknown;
  next: string[];
  tasks: { interrupts?: unknown[] }[];
  config: { configurable?: { checkpoint_id?: string } };
}

/** How many times a worker carries a run on (an interrupt answered, a resume) before it gives up. */
const MAX_TURNS = 20;

/**
 * A LangGraph worker: the user's graph (or entrypoint) with a PostgreSQL checkpointer from the
 * user's own @langchain/langgraph-checkpoint-postgres, on the cell's thread. Worker A invokes it
 * with the input; worker B carries the thread on as an operator would: `invoke(null)` where it
 * stopped, `Command({ resume })` where it waits in interrupt(), and the input again where the
 * thread holds no checkpoint at all (durability `exit` before the first one).
 */
export async function runLangGraph(job: LangGraphJob): Promise<void> {
  const from = resolve(job.module);
  const mod = await importUserModule(job.module);
  const shape = langGraphShape(mod);
  if (!shape) throw new Error(`${job.module}: ${SHAPES}`);
  const { PostgresSaver } = await importSdk<{
    PostgresSaver: { fromConnString(url: string): { setup(): Promise<void>; end(): Promise<void> } };
  }>(from, '@langchain/langgraph-checkpoint-postgres');
  const { Command } = await importSdk<{ Command: new (o: { resume: unknown }) => unknown }>(
    from,
    '@langchain/langgraph',
  );
  const { BaseCallbackHandler } = await importSdk<{ BaseCallbackHandler: new () => object }>(
    from,
    '@langchain/core/callbacks/base',
  );
  const saver = PostgresSaver.fromConnString(job.databaseUrl);
  const graph: Graph = await graphOf(mod, shape, saver);
  const graphName = (graph as { name?: unknown }).name;

  // A run starts for every node of a StateGraph and every task of an entrypoint, named as the node
  // and tagged with its superstep; the graph itself and runnables inside a node are runs too.
  class Steps extends (BaseCallbackHandler as new () => { awaitHandlers?: boolean }) {
    name = 'crash-test-steps';
    override awaitHandlers = true;
    async handleChainStart(...args: unknown[]): Promise<void> {
      const tags = args[4] as string[] | undefined;
      const metadata = args[5] as Record<string, unknown> | undefined;
      const runName = args[7] as string | undefined;
      if (!runName || runName !== metadata?.langgraph_node || !tags?.some((t) => t.startsWith('graph:step:'))) return;
      if (tags.includes('langsmith:hidden') || runName === graphName) return;
      await stepBegins(runName);
    }
  }
  const config = {
    configurable: { thread_id: job.threadId },
    callbacks: [new Steps()],
    ...(job.durability ? { durability: job.durability } : {}),
  };
  const stateOf = () => graph.getState!({ configurable: { thread_id: job.threadId } }) as Promise<Snapshot>;

  if (job.role === 'run') await graph.invoke!(job.input, config);
  else if (!(await stateOf()).config.configurable?.checkpoint_id) await graph.invoke!(job.input, config);
  let status = 'done';
  for (let turn = 0; ; turn++) {
    const state = await stateOf();
    if (state.next.length === 0) break;
    const waiting = state.tasks.some((t) => (t.interrupts ?? []).length > 0);
    if (turn >= MAX_TURNS || (waiting && !('resume' in job))) {
      status = waiting ? 'waiting in interrupt() (give --resume)' : `still running after ${MAX_TURNS} turns`;
      break;
    }
    await graph.invoke!(waiting ? new Command({ resume: job.resume }) : null, config);
  }
  const final = await stateOf();
  writeEvent(job.site.log, { e: 'done', t: Date.now(), pid: process.pid, state: final.values, status });
  await saver.end();
}
