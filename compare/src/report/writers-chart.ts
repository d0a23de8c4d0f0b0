import type { DurableMark, DurableRecord } from '@vendor-review/conformance';
import { forkedCheckpoints } from '@vendor-review/conformance';
import { esc } from './svg.ts';

/**
 * Who wrote the run's durable record, drawn from its marks: a lane per worker, a dot per write in
 * the record's order, a line from each write to the one it follows from. LangGraph: every
 * checkpoint, joined to its parent, so two workers continuing from one checkpoint show as two
 * lines leaving one dot (ringed: the fork). Temporal: every step the history records as done,
 * joined in history order (one chain: the history cannot fork). Plain SVG with <title> tooltips.
 */
export const WRITERS_CSS = `
svg.writers .edge { stroke: #94a3b8; stroke-width: 1.2; fill: none; } svg.writers .edge.cross { stroke-dasharray: 3 2; }
svg.writers .fork { fill: none; stroke: var(--bad); stroke-width: 2; } svg.writers .lane-rule { stroke: #e2e8f0; }
`;

const WRITER_COLOURS = ['#64748b', '#2563eb', '#ea580c', '#7c3aed', '#0d9488'];
const LABEL_W = 34;
const LANE_H = 22;
const STEP_W = 16;
const TOP = 12;

/** The marks worth a dot: checkpoints, or history events that record a step done by a worker (not the harness's client). */
function writes(record: DurableRecord): DurableMark[] {
  return record.marks.filter((m) =>
    record.kind === 'checkpoints'
      ? m.kind === 'checkpoint'
      : m.kind === 'event' && !m.bookkeeping && !!m.writer && !!m.step,
  );
}

export function renderWritersChart(record: DurableRecord | null): string {
  if (!record || record.kind === 'none') return '';
  const marks = writes(record);
  if (marks.length === 0) return '';
  // A lane per writer, in the order they first wrote.
  const lanes = [...new Set(marks.map((m) => m.writer ?? '?'))];
  const laneOf = (m: DurableMark) => lanes.indexOf(m.writer ?? '?');
  // Checkpoints sit at their step (a fork puts two at one step, in two lanes); events in history order.
  const columns = record.kind === 'checkpoints' ? [...new Set(marks.map((m) => m.order))].sort((a, b) => a - b) : [];
  const taken = new Map<string, number>();
  const pos = new Map<string, { x: number; y: number }>();
  marks.forEach((m, i) => {
    const col = record.kind === 'checkpoints' ? columns.indexOf(m.order) : i;
    const key = `${col}/${laneOf(m)}`;
    const nudge = taken.get(key) ?? 0; // the same writer twice at one step: side by side
    taken.set(key, nudge + 1);
    pos.set(m.id, { x: LABEL_W + 10 + col * STEP_W + nudge * 5, y: TOP + laneOf(m) * LANE_H });
  });
  const width = Math.max(...[...pos.values()].map((p) => p.x)) + 16;
  const height = TOP + lanes.length * LANE_H;
  const forks = new Set(forkedCheckpoints(record));
  const parentOf = (m: DurableMark, i: number): string | undefined =>
    record.kind === 'checkpoints' ? (m.parentId ?? undefined) : marks[i - 1]?.id;
  const edges = marks
    .map((m, i) => {
      const from = pos.get(parentOf(m, i) ?? '');
      const to = pos.get(m.id)!;
      if (!from) return '';
      const cross = from.y !== to.y ? ' cross' : '';
      return `<path class="edge${cross}" d="M${from.x},${from.y} C${(from.x + to.x) / 2},${from.y} ${(from.x + to.x) / 2},${to.y} ${to.x},${to.y}"/>`;
    })
    .join('');
  const dots = marks
    .map((m) => {
      const p = pos.get(m.id)!;
      const colour = WRITER_COLOURS[laneOf(m) % WRITER_COLOURS.length];
      const token = (m.fencingToken ?? null) !== null ? `, fencing token ${m.fencingToken}` : '';
      const title = `${m.long}, written by ${m.writer ?? 'unknown'}${token}`;
      const ring = forks.has(m.id) ? `<circle class="fork" cx="${p.x}" cy="${p.y}" r="7"/>` : '';
      return `${ring}<circle cx="${p.x}" cy="${p.y}" r="4" fill="${colour}"><title>${esc(title)}</title></circle>`;
    })
    .join('');
  const rules = lanes
    .map((w, i) => {
      const y = TOP + i * LANE_H;
      return `<line class="lane-rule" x1="${LABEL_W}" y1="${y}" x2="${width}" y2="${y}"/><text x="4" y="${y + 4}">${esc(w)}</text>`;
    })
    .join('');
  const what =
    record.kind === 'checkpoints'
      ? 'checkpoints by writer, each joined to its parent'
      : 'steps recorded done in the history, by writer, in order';
  return `<svg class="writers" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${esc(what)}">${rules}${edges}${dots}</svg>`;
}
