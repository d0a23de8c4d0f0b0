import { randomUUID } from 'node:crypto';
import { timedRun, type BareShape, type PerStepConfig, type TimedRun } from '@vendor-review/conformance';
import type { Durability, Ports, ReviewRequestInput, Variant } from '@vendor-review/pipeline';
import type pg from 'pg';
import { bareSaver, runBareGraph, type BareSaver } from './bare-graph.ts';
import { runReviewInProcess } from './in-process.ts';
import { runGraphDirect } from './replay-graph.ts';
import { recordingSteps, replayingSteps } from './replay-steps.ts';
import type { DomainSteps } from '../../src/nodes.ts';
import type { LangGraphApi } from '../../src/runs.ts';

export type LangGraphMode = { saver: BareSaver; durability: Durability; variant: Variant; api?: LangGraphApi };

/** A review as a worker executes it (executeRun); with `steps`, the recorded steps instead of the real ones. */
export function reviewRun(
  o: { pool: pg.Pool; ports: Ports },
  request: ReviewRequestInput,
  m: LangGraphMode,
  steps?: DomainSteps,
): Promise<TimedRun> {
  return timedRun(async () => {
    const r = await runReviewInProcess({
      pool: o.pool,
      ports: o.ports,
      request,
      variant: m.variant,
      durability: m.durability,
      checkpointer: m.saver,
      ...(m.api ? { api: m.api } : {}),
      ...(steps ? { steps } : {}),
    });
    return { ok: r.outcome.status === 'completed', id: r.threadId };
  });
}

/** Records the steps of one review through our graph (in memory), for the replayed runs. */
async function recordSteps(ports: Ports, request: ReviewRequestInput): Promise<DomainSteps> {
  const { steps, recording } = recordingSteps();
  await runGraphDirect({
    checkpointer: bareSaver('memory', null),
    steps,
    request,
    durability: 'sync',
    threadId: randomUUID(),
    ports,
  });
  return replayingSteps(recording);
}

const MODES: (LangGraphMode & { mode: string; finding: string })[] = [
  { mode: 'memory', saver: 'memory', durability: 'sync', variant: 'naive', finding: 'LangGraph with MemorySaver' },
  { mode: 'exit', saver: 'postgres', durability: 'exit', variant: 'naive', finding: 'PostgresSaver `exit`' },
  { mode: 'async', saver: 'postgres', durability: 'async', variant: 'naive', finding: '`async`' },
  { mode: 'sync', saver: 'postgres', durability: 'sync', variant: 'naive', finding: '`sync`' },
];

/**
 * Per durability mode: LangGraph bare (bare-graph.ts), our graph on a stock saver with the steps
 * replayed (LangGraph carrying our state), our executeRun on the replayed steps (our code around
 * it), and the review; then the hardened variant on the replayed steps and for real.
 */
export async function perStepConfigs(
  o: { pool: pg.Pool; ports: Ports },
  request: ReviewRequestInput,
  shape: BareShape,
): Promise<PerStepConfig[]> {
  const steps = await recordSteps(o.ports, request);
  const out: PerStepConfig[] = [];
  for (const m of MODES) {
    const saverName = m.saver === 'memory' ? 'MemorySaver' : `PostgresSaver ${m.durability}`;
    const ours = m.saver === 'memory' ? 'MemorySaver' : `ReviewSaver ${m.durability}`;
    const bare = `bare-${m.mode}`;
    const replay = `replay-${m.mode}`;
    out.push(
      {
        mode: bare,
        label: `LangGraph bare, ${saverName}`,
        kind: 'bare',
        bare: null,
        replay: null,
        run: () => {
          const threadId = randomUUID();
          return timedRun(async () => {
            const done = await runBareGraph({
              checkpointer: bareSaver(m.saver, o.pool),
              threadId,
              durability: m.durability,
              ...shape,
            });
            return { ok: done > 0, id: threadId };
          }, threadId);
        },
      },
      {
        mode: replay,
        label: `LangGraph on our state, ${saverName}`,
        kind: 'replay',
        bare,
        replay: null,
        run: () => {
          const threadId = randomUUID();
          return timedRun(async () => {
            const final = await runGraphDirect({
              checkpointer: bareSaver(m.saver, o.pool),
              steps,
              request,
              durability: m.durability,
              threadId,
            });
            return { ok: final.delivery !== null, id: threadId };
          }, threadId);
        },
      },
      {
        mode: `ours-${m.mode}`,
        label: `LangGraph naive, ${ours}, steps replayed`,
        kind: 'ours',
        bare,
        replay,
        ourCode: true,
        run: () => reviewRun(o, request, m, steps),
      },
      {
        mode: m.mode,
        label: `LangGraph naive, ${ours}`,
        kind: 'review',
        bare,
        replay: `ours-${m.mode}`,
        finding: m.finding,
        run: () => reviewRun(o, request, m),
      },
    );
  }
  const hardened: LangGraphMode = { saver: 'postgres', durability: 'sync', variant: 'hardened' };
  out.push(
    {
      mode: 'ours-hardened',
      label: 'LangGraph hardened, steps replayed',
      kind: 'ours',
      bare: 'bare-sync',
      replay: 'replay-sync',
      ourCode: true,
      run: () => reviewRun(o, request, hardened, steps),
    },
    {
      mode: 'hardened',
      label: 'LangGraph hardened (sync, lease + fence, provenance, outbox)',
      kind: 'review',
      bare: 'bare-sync',
      replay: 'ours-hardened',
      finding: 'our hardened LangGraph',
      run: () => reviewRun(o, request, hardened),
    },
  );
  return out;
}
