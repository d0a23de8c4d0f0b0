import { workerNameOf, type DurableMark, type DurableRecord } from '@vendor-review/conformance';
import type { DurableCheckpoint, DurablePendingWrite } from './inspect.ts';

function toMs(v: string | number | null | undefined): number | null {
  if (v === null || v === undefined) return null;
  const n = typeof v === 'number' ? v : Date.parse(v);
  return Number.isFinite(n) ? n : null;
}

/**
 * LangGraph's tables for one thread as the harness reads them: one mark per checkpoint (with its
 * parent, so a forked chain shows, and the worker and fencing token our saver recorded beside it)
 * and one per pending write (what finished siblings of an unfinished superstep left behind), and
 * the run's lease row, released or not.
 */
export function toDurableRecord(
  record: {
    checkpoints: DurableCheckpoint[];
    pendingWrites: DurablePendingWrite[];
    bytes?: number;
    lease?: { owner: string; fencingToken: number } | null;
  },
  runtime = 'langgraph',
): DurableRecord {
  const marks: DurableMark[] = [];
  for (const c of record.checkpoints) {
    const what = c.node ?? (c.source === 'input' ? 'input' : c.source);
    marks.push({
      id: c.checkpointId,
      kind: 'checkpoint',
      at: toMs(c.createdAt),
      step: c.node ?? null,
      short: `cp ${c.step} ${what}`,
      long: `checkpoint at step ${c.step} (${c.source}${c.node ? `, after ${c.node}` : ''})`,
      parentId: c.parentId ?? null,
      writer: c.writer ?? null,
      fencingToken: c.fencingToken ?? null,
      order: c.step,
    });
  }
  const stepOf = new Map(record.checkpoints.map((c) => [c.checkpointId, c.step]));
  // A pending write whose checkpoint was never written is no progress: LangGraph reads writes only
  // through their checkpoint. Measured (MEASUREMENTS.md, Functional API): a kill that came before the
  // input checkpoint's background write had landed left a finished task's result on its own.
  for (const w of record.pendingWrites.filter((w) => stepOf.has(w.checkpointId))) {
    marks.push({
      id: `${w.checkpointId}/${w.taskId}/${w.channel}`,
      kind: 'pending-write',
      at: null,
      step: w.node ?? null,
      short: `w ${w.node ?? w.channel}`,
      long: `pending write to ${w.channel}${w.node ? ` by ${w.node}` : ''}`,
      parentId: w.checkpointId,
      order: (stepOf.get(w.checkpointId) ?? 0) + 0.5,
    });
  }
  marks.sort((a, b) => a.order - b.order);
  const claims = record.lease
    ? [
        {
          step: null,
          attempt: record.lease.fencingToken,
          worker: workerNameOf(record.lease.owner),
          fence: 'lease' as const,
        },
      ]
    : [];
  // Every invoke() with an input writes a checkpoint of source `input` first: one per run started on the thread.
  const runs = record.checkpoints.filter((c) => c.source === 'input').length;
  return { runtime, kind: 'checkpoints', marks, bytes: record.bytes ?? null, claims, runs };
}
