/**
 * What `pnpm bench` measures of LangGraph's Functional API (the contract: RuntimeBench in
 * @vendor-review/conformance): the review as an entrypoint, executed in this process as a
 * worker executes it, naive in its three durability modes and hardened, against the plain runner's
 * floor in PostgreSQL commits; and what a finished run keeps in LangGraph's tables and ours. The
 * StateGraph's bench (../bench/runtime-bench.ts) measures the same review as a graph beside it. No
 * bare or replayed configurations, no throughput or recovery sweep: the worker, lease and saver
 * are the StateGraph's, which its bench measures.
 */
import type { ReviewRequestInput } from '@vendor-review/pipeline';
import type { RuntimeBench, PerStepConfig } from '@vendor-review/conformance';
import { reviewRun, type LangGraphMode } from '../bench/per-step.ts';
import { checkpointStorage } from '../bench/storage.ts';
import { createPool } from '../../src/pool.ts';

const MODES: Record<string, LangGraphMode & { label: string }> = {
  async: { label: 'naive, async', saver: 'postgres', durability: 'async', variant: 'naive', api: 'functional' },
  sync: { label: 'naive, sync', saver: 'postgres', durability: 'sync', variant: 'naive', api: 'functional' },
  exit: { label: 'naive, exit', saver: 'postgres', durability: 'exit', variant: 'naive', api: 'functional' },
  hardened: {
    label: 'hardened (sync + task commits, lease + fence, provenance, outbox)',
    saver: 'postgres',
    durability: 'sync',
    variant: 'hardened',
    api: 'functional',
  },
};

export const bench: RuntimeBench = {
  unit: 'commit',

  async inProcess(env) {
    const pool = createPool(env.databaseUrl, { max: 8 });
    const o = { pool, ports: env.ports };
    const review = (mode: string, request: ReviewRequestInput): PerStepConfig => ({
      mode,
      label: `LangGraph Functional API ${MODES[mode]!.label}`,
      kind: 'review',
      bare: null,
      replay: null,
      run: () => reviewRun(o, request, MODES[mode]!),
    });
    return {
      workerStartMs: null,
      perStep: async ({ request }) => Object.keys(MODES).map((mode) => review(mode, request)),
      storage: checkpointStorage(o, MODES),
      close: () => pool.end(),
    };
  },
};
