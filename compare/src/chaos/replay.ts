import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { RuntimeInfo } from '@vendor-review/conformance';
import { UsageError } from '@vendor-review/worker-io';
import { ChaosResultSchema } from './schema.ts';
import { parseChaosRunId, runtimeCode, type Strike } from './schedule.ts';

/**
 * `pnpm chaos --seed S --run ID`: one review again, under the same faults. Its own part of the
 * schedule (vendor, armed crash point, world faults, held approval) comes back from the seed; the
 * strikes that hit it in the campaign come from the campaign's chaos.json (the moments are the
 * campaign's, not the seed's alone: they depend on when the run happened to start), shifted so
 * they fall at the same distance from the run's start.
 */
export interface ReplayPlan {
  runtime: string;
  variant: 'naive' | 'hardened';
  index: number;
  strikes: Strike[];
  /** Where the strikes came from, in words, for the report. */
  source: string;
}

export async function replayPlan(o: {
  seed: string;
  runId: string;
  reportDir: string;
  /** The runtimes a campaign drives: the run id names one by its label. */
  runtimes: readonly RuntimeInfo[];
}): Promise<ReplayPlan> {
  const id = parseChaosRunId(o.runId);
  const codes = o.runtimes.map((r) => runtimeCode(r.label));
  if (!id)
    throw new UsageError(`--run ${o.runId}: not a run id a campaign made (ch<seed>-${codes.join('|')}-naive|hard-<n>)`);
  const runtime = o.runtimes.find((r) => runtimeCode(r.label) === id.runtimeCode);
  if (!runtime)
    throw new UsageError(
      `--run ${o.runId}: "${id.runtimeCode}" is not a runtime a campaign drives (${codes.join(', ')})`,
    );
  if (id.seed !== o.seed)
    throw new UsageError(`--run ${o.runId} belongs to seed ${id.seed}, not ${o.seed}: give --seed ${id.seed}`, {
      seeHelp: false,
    });
  const file = path.join(o.reportDir, 'chaos.json');
  const base = { runtime: runtime.name, variant: id.variant, index: id.index };
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return { ...base, strikes: [], source: `no ${file}: its own faults only, no strike` };
  }
  const parsed = ChaosResultSchema.safeParse(JSON.parse(text));
  const run = parsed.success ? parsed.data.runs.find((r) => r.runId === o.runId) : undefined;
  const from = parsed.success ? parsed.data.meta.strikesFrom : null;
  if (!parsed.success || parsed.data.meta.seed !== o.seed || !run || from === null)
    return { ...base, strikes: [], source: `${file} is not this campaign's, or lacks the run: its own faults only` };
  const end = run.endedAt ?? run.startedAt + 3600_000;
  const strikes = parsed.data.strikes
    .filter((s) => s.fired && from + s.at >= run.startedAt - 1_000 && from + s.at <= end)
    .map(({ fired: _fired, ...s }) => ({ ...s, at: Math.max(0, from + s.at - run.startedAt) }));
  return { ...base, strikes, source: `${strikes.length} strike(s) from ${file}` };
}
