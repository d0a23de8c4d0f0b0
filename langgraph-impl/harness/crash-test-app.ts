/**
 * Our own naive review graph in the shape `pnpm crash-test` takes from a team's module: a
 * `build(checkpointer)` that compiles it and the `input` it starts from. The tool supplies the
 * checkpointer, the thread, the durability and the kill, as it does for an app nobody here wrote,
 * so what it finds can be held against `pnpm compare`'s rows for the same graph
 * (test/crash-test-agrees.e2e.test.ts). WORLD_URL says where the world is, as for every worker.
 */
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import { cellRequest } from '@vendor-review/conformance/request';
import { initialState, parseReviewRequest } from '@vendor-review/pipeline';
import { createHttpPorts } from '@vendor-review/worker-io';
import { compileGraph } from '../src/graph.ts';

const worldUrl = process.env.WORLD_URL;
if (!worldUrl) throw new Error('WORLD_URL is not set: the graph calls the world there');

export function build(checkpointer: BaseCheckpointSaver) {
  const deps = { variant: 'naive' as const, ports: createHttpPorts({ worldUrl }), worker: `pid-${process.pid}` };
  return compileGraph(deps, checkpointer);
}

/** The review every compare cell runs; one run id for every cell here, each on a thread of its own. */
export const input = initialState('crash-test', parseReviewRequest(cellRequest(worldUrl)));
