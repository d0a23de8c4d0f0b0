import type { RunStatus } from '@vendor-review/pipeline';
import { isProcessAlive } from '@vendor-review/testbed';
import { UsageError } from '@vendor-review/worker-io';
import { handleLabel } from './config.ts';
import { listRuns, readLives } from './runs.ts';
import { openRuntime, titleOf } from './runtimes.ts';
import { LAB_RUNTIMES, requireUp } from './state.ts';

/** `pnpm lab runs`: every run started in this lab, its status as its runtime says, and its workers (✕ killed, * alive). */
export async function listLabRuns(dir: string, o: { json: boolean }): Promise<number> {
  const state = requireUp(dir);
  const runs = listRuns(dir);
  const status = new Map<string, RunStatus | string>();
  for (const runtime of LAB_RUNTIMES) {
    const mine = runs.filter((r) => r.runtime === runtime);
    if (!mine.length) continue;
    const opened = await openRuntime(state, runtime).catch((err: unknown) => {
      if (err instanceof UsageError) return null; // that server is down: say so per run, list the rest
      throw err;
    });
    for (const r of mine) {
      const view = opened ? await opened.adapter.status(r.handle).catch(() => null) : null;
      status.set(r.handle.runId, view?.status ?? `unknown (${titleOf(runtime)} does not answer)`);
    }
    await opened?.adapter.close();
  }
  const rows = runs.map((r) => {
    const lives = readLives(dir, r.handle.runId);
    return {
      runId: r.handle.runId,
      runtime: r.runtime,
      config: handleLabel(r.handle),
      status: status.get(r.handle.runId) ?? '?',
      workers: lives
        .map((l) => `${l.name}${l.signal ? '✕' : l.exitedAt === null && l.pid && isProcessAlive(l.pid) ? '*' : ''}`)
        .join(' '),
      source: r.source,
      createdAt: r.createdAt,
    };
  });
  if (o.json) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  if (!rows.length) {
    console.log('no runs in this lab yet: pnpm lab start langgraph --vendor acme-analytics');
    return 0;
  }
  const width = Math.max(...rows.map((r) => r.runId.length), 3);
  console.log(`${'run'.padEnd(width)}  runtime    config        status             workers   started   review`);
  for (const r of rows)
    console.log(
      `${r.runId.padEnd(width)}  ${titleOf(r.runtime).padEnd(10)} ${r.config.padEnd(13)} ${String(r.status).padEnd(18)} ${r.workers.padEnd(9)} ${new Date(r.createdAt).toTimeString().slice(0, 8)}  ${r.source}`,
    );
  console.log('workers: ✕ killed, * running · pnpm lab show RUN for one run');
  return 0;
}
