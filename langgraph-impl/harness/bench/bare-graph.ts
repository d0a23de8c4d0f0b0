/**
 * LangGraph itself, without our code: a graph of the review's shape (the same nodes, the same
 * FETCH fan-out through Send, the same loop per requirement, the same approval interrupt and
 * resume) whose nodes do nothing but count, over a stock saver. What it costs per step is what the
 * runtime costs; the review on the same saver and durability, less the plain runner's floor, less
 * this, is what our nodes, saver, lease and state add. Used by `pnpm bench` only.
 */
import {
  Annotation,
  Command,
  END,
  interrupt,
  MemorySaver,
  Send,
  START,
  StateGraph,
  type BaseCheckpointSaver,
} from '@langchain/langgraph';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import type { Durability } from '@vendor-review/pipeline';
import type pg from 'pg';

const BareChannels = Annotation.Root({
  /** Requirements still to go round the loop for. */
  left: Annotation<number>({ reducer: (_old, next) => next, default: () => 0 }),
  pages: Annotation<number>({ reducer: (_old, next) => next, default: () => 0 }),
  /** Steps done, so each node writes something, as the review's nodes do. */
  done: Annotation<number>({ reducer: (old, next) => old + next, default: () => 0 }),
  approved: Annotation<boolean>({ reducer: (_old, next) => next, default: () => false }),
});
type Bare = typeof BareChannels.State;

const step = () => ({ done: 1 });

/** VALIDATE → DISCOVER → (SELECT_REQUIREMENT → SELECT_PAGE ⇉ FETCH×pages → EXTRACT → VERIFY → SAVE_PROGRESS)×n → DRAFT → AWAIT_APPROVAL → DELIVER. */
export function buildBareGraph(checkpointer: BaseCheckpointSaver) {
  return new StateGraph(BareChannels)
    .addNode('VALIDATE', step)
    .addNode('DISCOVER', step)
    .addNode('SELECT_REQUIREMENT', (s: Bare) => ({ done: 1, left: s.left - 1 }))
    .addNode('SELECT_PAGE', step)
    .addNode('FETCH', step)
    .addNode('EXTRACT', step)
    .addNode('VERIFY', step)
    .addNode('SAVE_PROGRESS', step)
    .addNode('DRAFT', step)
    .addNode('AWAIT_APPROVAL', () => ({ done: 1, approved: interrupt('approve?') as boolean }))
    .addNode('DELIVER', step)
    .addEdge(START, 'VALIDATE')
    .addEdge('VALIDATE', 'DISCOVER')
    .addEdge('DISCOVER', 'SELECT_REQUIREMENT')
    .addEdge('SELECT_REQUIREMENT', 'SELECT_PAGE')
    .addConditionalEdges(
      'SELECT_PAGE',
      (s: Bare) => Array.from({ length: s.pages }, (_, index) => new Send('FETCH', { ...s, index })),
      ['FETCH'],
    )
    .addEdge('FETCH', 'EXTRACT')
    .addEdge('EXTRACT', 'VERIFY')
    .addEdge('VERIFY', 'SAVE_PROGRESS')
    .addConditionalEdges('SAVE_PROGRESS', (s: Bare) => (s.left > 0 ? 'SELECT_REQUIREMENT' : 'DRAFT'), [
      'SELECT_REQUIREMENT',
      'DRAFT',
    ])
    .addEdge('DRAFT', 'AWAIT_APPROVAL')
    .addConditionalEdges('AWAIT_APPROVAL', (s: Bare) => (s.approved ? 'DELIVER' : END), ['DELIVER', END])
    .addEdge('DELIVER', END)
    .compile({ checkpointer });
}

export type BareSaver = 'memory' | 'postgres';

/** A stock saver: MemorySaver, or PostgresSaver on `pool` (its tables set up by setupDatabase). */
export function bareSaver(kind: BareSaver, pool: pg.Pool | null): BaseCheckpointSaver {
  if (kind === 'memory') return new MemorySaver();
  if (!pool) throw new Error('a postgres saver needs a pool');
  return new PostgresSaver(pool);
}

/** One bare run to its end: invoke until the interrupt, resume approved. Returns the steps it counted. */
export async function runBareGraph(o: {
  checkpointer: BaseCheckpointSaver;
  threadId: string;
  requirements: number;
  pages: number;
  durability: Durability;
}): Promise<number> {
  const graph = buildBareGraph(o.checkpointer);
  const config = { configurable: { thread_id: o.threadId }, durability: o.durability, recursionLimit: 10_000 };
  await graph.invoke({ left: o.requirements, pages: o.pages }, config);
  const final = await graph.invoke(new Command({ resume: true }), config);
  return final.done;
}
