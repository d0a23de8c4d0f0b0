import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { windowSeriesId, type WindowStep } from '@vendor-review/conformance';
import { windowLines } from '../report/window-rows.ts';
import { WindowRowSchema, type WindowRow } from '../report/window-schema.ts';
import { closedText } from '../report/window-table.ts';

/**
 * Time to durable beside the cost per step: the window suite's figures (`pnpm compare --suite
 * window`), read from its results.json, by the bench's row ids. A per-step row's mode names its
 * configuration: the variant (`naive`, `hardened`) or, for a runtime with durability modes, the
 * naive mode (`sync`, `async`, `exit`).
 */
export interface WindowFigures {
  source: string;
  measuredAt: string;
  /** `runtime:mode` → "model / note" time to durable. */
  byRow: Record<string, string>;
}

const WindowResults = z.object({
  meta: z.object({ startedAt: z.string() }),
  rows: z.array(z.looseObject({ suite: z.string() })),
});

/** The figures, or why there are none (no file, not a results.json of this version, no window rows). */
export function windowFigures(file: string): WindowFigures | string {
  if (!existsSync(file)) return `no file ${file}`;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    return `${file} is not JSON: ${(err as Error).message}`;
  }
  const parsed = WindowResults.safeParse(json);
  if (!parsed.success) return `${file} is not a results.json of pnpm compare`;
  const rows = parsed.data.rows.filter((r) => r.suite === 'window').map((r) => WindowRowSchema.safeParse(r));
  if (!rows.length) return `${file} holds no window suite rows`;
  const bad = rows.find((r) => !r.success);
  if (bad && !bad.success)
    return `${file} has window rows this version cannot read (${bad.error.issues[0]?.path.join('.')}: ${bad.error.issues[0]?.message}); run pnpm compare --suite window again`;
  return figuresOf(
    rows.flatMap((r) => (r.success ? [r.data] : [])),
    file,
    parsed.data.meta.startedAt,
  );
}

function figuresOf(rows: WindowRow[], source: string, measuredAt: string): WindowFigures {
  const byRow: Record<string, string> = {};
  const lines = windowLines(rows);
  for (const l of lines) {
    const mode = l.variant === 'hardened' ? 'hardened' : (l.durability ?? 'naive');
    const of = (step: WindowStep) => {
      const line = lines.find((x) => x.id === windowSeriesId({ ...l, step }));
      return line ? closedText(line).replace(/ · .*$/, '') : '—';
    };
    byRow[`${l.runtime}:${mode}`] = `${of('model')} / ${of('note')}`;
  }
  return { source, measuredAt, byRow };
}
