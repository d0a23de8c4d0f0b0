import { isDeepStrictEqual } from 'node:util';
import type { CrashAt, WorkerEvent } from './events.ts';
import type { PlannedCell } from './plan.ts';
import type { CellRun } from './drivers/types.ts';
import type { Runtime } from './load-app.ts';
import { callsOf, countByKey, type RecordedCall } from './record.ts';

/** USD per million tokens, input and output, by model name. */
export type Prices = Record<string, [number, number]>;

export interface Repeat {
  call: string;
  /** Times it went out beyond the baseline's. */
  extra: number;
  /** Every repeat carried an idempotency key. */
  withKey: boolean;
  extraInputTokens: number;
  extraOutputTokens: number;
  /** Null where the answer carries no usage or no price was given for its model. */
  extraCostUsd: number | null;
}

export interface Finding {
  id: string;
  label: string;
  point: CrashAt;
  mode: 'replay' | 'live';
  reached: boolean;
  resumed: boolean;
  stuck: string | null;
  again: Repeat[];
  /** Null where the run did not end. */
  sameFinal: boolean | null;
  /** From worker A's death to the run's end. */
  resumeMs: number | null;
  /** The steps that began more often than in the baseline. */
  stepsAgain: string[];
  runtimeDid: string;
  bodyDiffers: string[];
  refused: string[];
  advice: string[];
}

const tokensOf = (calls: readonly RecordedCall[], key: string, baseline: readonly RecordedCall[]) => {
  let input = 0;
  let output = 0;
  let model: string | null = null;
  for (const c of calls) {
    if (c.key !== key) continue;
    // A call that died in flight was still worked on by the model: count it as the baseline's answer did.
    const usage = c.usage ?? baseline.find((b) => b.key === key && b.occurrence === c.occurrence)?.usage ?? null;
    if (!usage) continue;
    input += usage.inputTokens;
    output += usage.outputTokens;
    model ??= usage.model;
  }
  return { input, output, model };
};

function repeatsOf(cell: readonly RecordedCall[], baseline: readonly RecordedCall[], prices: Prices): Repeat[] {
  const base = countByKey(baseline);
  const repeats: Repeat[] = [];
  for (const [key, n] of countByKey(cell)) {
    const extra = n - (base.get(key) ?? 0);
    if (extra <= 0) continue;
    const beyond = cell.filter((c) => c.key === key).slice(-extra);
    const t = tokensOf(cell, key, baseline);
    const b = tokensOf(baseline, key, baseline);
    const inTok = Math.max(0, t.input - b.input);
    const outTok = Math.max(0, t.output - b.output);
    const price = t.model ? prices[t.model] : undefined;
    repeats.push({
      call: key,
      extra,
      withKey: beyond.every((c) => c.idempotencyKey),
      extraInputTokens: inTok,
      extraOutputTokens: outTok,
      extraCostUsd: price && (inTok || outTok) ? (inTok * price[0] + outTok * price[1]) / 1e6 : null,
    });
  }
  return repeats;
}

/** The steps begun, one entry each (`key` their name), to count like calls. */
const stepsBegun = (events: readonly WorkerEvent[]): { key: string }[] =>
  events.flatMap((e) => (e.e === 'step' ? [{ key: e.name }] : []));

/**
 * The steps that began more often in the cell's two workers than in the baseline: what the runtime
 * ran again (a step A began and B began once more), not what B merely went on to.
 */
function stepsAgainOf(run: CellRun, baseline: readonly WorkerEvent[]): string[] {
  const base = countByKey(stepsBegun(baseline));
  return [...countByKey([...stepsBegun(run.a), ...stepsBegun(run.b)])]
    .filter(([name, n]) => n > (base.get(name) ?? 0))
    .map(([name]) => name);
}

function whatTheRuntimeDid(runtime: Runtime, run: CellRun, again: readonly string[]): string {
  if (run.aDiedAt === null) return 'the point was not reached (the run went another way)';
  const unit = runtime === 'temporal' ? 'activity' : runtime === 'functional' ? 'task' : 'node';
  if (again.length) return `re-ran the ${unit}${again.length > 1 ? 's' : ''} ${again.join(', ')}`;
  return runtime === 'temporal'
    ? 'replayed the history; no activity ran again'
    : 'resumed from the last checkpoint; no step ran again';
}

function adviceFor(runtime: Runtime, f: Omit<Finding, 'advice'>): string[] {
  const advice: string[] = [];
  const unit = runtime === 'temporal' ? 'an activity' : runtime === 'functional' ? 'a task' : 'a node';
  if (!f.reached)
    return [
      'the baseline reached this point and this run did not: the app does not take the same path twice (check what differs between runs)',
    ];
  for (const r of f.again) {
    const method = r.call.split(' ')[0];
    if (r.extraInputTokens || r.extraOutputTokens) {
      advice.push(
        `${r.call} is paid again (${r.extraInputTokens + r.extraOutputTokens} tokens) when the worker dies ${f.label}: make the model call ${unit} of its own so its answer is kept`,
      );
    } else if (method === 'GET' || method === 'HEAD') {
      advice.push(`${r.call} is read again when the worker dies ${f.label}: harmless if reading has no effect`);
    } else if (r.withKey) {
      advice.push(
        `${r.call} runs again with its idempotency key when the worker dies ${f.label}: make sure the server honours the key`,
      );
    } else {
      advice.push(
        `${r.call} runs again when the worker dies ${f.label}: give it an idempotency key, or move it behind an outbox`,
      );
    }
  }
  if (f.bodyDiffers.length)
    advice.push(
      `the repeated ${f.bodyDiffers.join(', ')} sent a different body than the baseline: the retry is not the same request (a timestamp, a random id?)`,
    );
  if (f.refused.length)
    advice.push(
      `calls the baseline never made were refused in replay (${f.refused.join(', ')}): run with --live to send them`,
    );
  if (f.stuck) advice.push(`the run did not end: ${f.stuck}`);
  else if (f.sameFinal === false)
    advice.push('the run ends with a different result than the baseline: compare the two in results.json');
  if (advice.length === 0) advice.push('nothing ran twice here');
  return advice;
}

export function findingOf(
  runtime: Runtime,
  run: CellRun,
  planned: PlannedCell,
  baselineEvents: readonly WorkerEvent[],
  baselineFinal: unknown,
  prices: Prices,
): Finding {
  const baseline = callsOf(baselineEvents);
  const cellCalls = [...callsOf(run.a), ...callsOf(run.b)];
  const again = repeatsOf(cellCalls, baseline, prices);
  const stepsAgain = stepsAgainOf(run, baselineEvents);
  const f = {
    id: planned.id,
    label: planned.label,
    point: planned.crash,
    mode: run.spec.mode === 'live' ? ('live' as const) : ('replay' as const),
    reached: run.aDiedAt !== null,
    resumed: run.final !== null,
    stuck: run.stuck,
    again,
    sameFinal: run.final ? isDeepStrictEqual(run.final.state, baselineFinal) : null,
    resumeMs: run.aDiedAt !== null && run.endedAt !== null ? run.endedAt - run.aDiedAt : null,
    stepsAgain,
    runtimeDid: whatTheRuntimeDid(runtime, run, stepsAgain),
    bodyDiffers: [...new Set(cellCalls.filter((c) => c.bodyDiffers).map((c) => c.key))],
    refused: [...new Set(cellCalls.filter((c) => c.refused).map((c) => c.key))],
  };
  return { ...f, advice: adviceFor(runtime, f) };
}
