import { Command, type BaseCheckpointSaver } from '@langchain/langgraph';
import {
  initialState,
  parseReviewRequest,
  type Durability,
  type Ports,
  type ReviewRequestInput,
  type ReviewState,
} from '@vendor-review/pipeline';
import { compileGraph } from '../../src/graph.ts';
import type { DomainSteps } from '../../src/nodes.ts';

const NO_PORTS = new Proxy({} as Ports, {
  get() {
    throw new Error('a replayed step called the outside world');
  },
});

/**
 * Our graph, as the review builds it (naive: no retry policy, no outbox), invoked directly on a
 * saver: to the approval interrupt, then resumed approved. With replayed steps it is LangGraph
 * carrying our state, nothing of ours around it (no executeRun, no run table, no lease).
 */
export async function runGraphDirect(o: {
  checkpointer: BaseCheckpointSaver;
  steps: DomainSteps;
  request: ReviewRequestInput;
  durability: Durability;
  threadId: string;
  ports?: Ports;
}): Promise<ReviewState> {
  const graph = compileGraph(
    { variant: 'naive', ports: o.ports ?? NO_PORTS, worker: 'bench', steps: o.steps },
    o.checkpointer,
  );
  const config = { configurable: { thread_id: o.threadId }, durability: o.durability, recursionLimit: 500 };
  await graph.invoke(initialState('rev-bench', parseReviewRequest(o.request)) as never, config);
  return (await graph.invoke(new Command({ resume: { approved: true, by: 'bench' } }) as never, config)) as ReviewState;
}
