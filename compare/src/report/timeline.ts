import { operationLabel, type CellObservation } from '@vendor-review/conformance';
import { workerLife } from '@vendor-review/testbed';
import { money } from '../table.ts';
import { esc, KIND_COLOURS, num } from './svg.ts';

/**
 * One cell's timeline: a lane per worker process with every call the world recorded from it, a
 * lane for what the runtime made durable, the crash as a red line, re-executions outlined in red.
 * Plain SVG with <title> tooltips: no script, so it prints and opens offline.
 */
export interface TimelineInput {
  obs: CellObservation;
  repeatSeqs: readonly number[];
  width?: number;
}

const LANE_H = 26;
const LABEL_W = 74;
const TOP = 8;
const LABEL_ROW_H = 13;
/** What a character of the 11 px label text takes at most, with room to spare: labels are placed by it. */
const CHAR_W = 7;

interface BottomLabel {
  x: number;
  text: string;
  cls: string;
  line: string;
  title: string;
}

/**
 * Rows for the labels under the lanes, so none runs into another: each goes on the first row
 * where it clears the one before it, to the right of its mark (to the left where it would leave
 * the drawing). The axis's own labels come on the row after.
 */
export function placeLabels<L extends { x: number; text: string }>(
  labels: readonly L[],
  o: { left: number; right: number },
): (L & { row: number; textX: number; anchorEnd: boolean })[] {
  const ends: number[] = [];
  return [...labels]
    .sort((a, b) => a.x - b.x)
    .map((l) => {
      const w = l.text.length * CHAR_W;
      const anchorEnd = l.x + 4 + w > o.right;
      const from = anchorEnd ? Math.max(o.left, l.x - 4 - w) : l.x + 3;
      let row = ends.findIndex((end) => end + 8 <= from);
      if (row < 0) row = ends.push(0) - 1;
      ends[row] = from + w;
      return { ...l, row, textX: anchorEnd ? l.x - 4 : l.x + 3, anchorEnd };
    });
}

export function renderTimeline({ obs, repeatSeqs, width = 860 }: TimelineInput): string {
  const repeated = new Set(repeatSeqs);
  const workers = obs.workers.length
    ? obs.workers
    : [workerLife({ name: 'A', startedAt: obs.startedAt, exitedAt: obs.endedAt })];
  const laneNames = [
    ...new Set([
      ...workers.map((w) => w.name),
      ...obs.ledger.map((e) => e.worker ?? '?').filter((n) => !workers.some((w) => w.name === n)),
    ]),
  ];
  const durableMarks = (obs.durableFinal?.marks ?? []).filter((m) => m.at !== null && m.kind !== 'pending-write');
  const lanes = [...laneNames, 'durable'];

  const times = [
    obs.startedAt,
    obs.endedAt,
    ...obs.ledger.flatMap((e) => [e.at, e.at + e.durationMs]),
    ...durableMarks.map((m) => m.at!),
  ].filter((t) => Number.isFinite(t));
  const t0 = Math.min(...times);
  const t1 = Math.max(...times, t0 + 1);
  const plotW = width - LABEL_W - 12;
  const x = (t: number) => LABEL_W + ((t - t0) / (t1 - t0)) * plotW;
  const laneY = (i: number) => TOP + i * LANE_H;
  // The labels under the lanes (approvals, the crash) on as many rows as keep them apart, the time axis below them.
  const labels: BottomLabel[] = obs.approvals.map((a) => {
    const ax = x(a.at);
    return {
      x: ax,
      cls: 'approval-mark',
      text: `approved${a.aliveWorker ? '' : ' (no worker alive)'}`,
      line: `<line x1="${num(ax)}" x2="${num(ax)}" y1="${TOP}" y2="${num(laneY(lanes.length))}"/>`,
      title: `approval sent${a.aliveWorker ? ` while worker ${a.aliveWorker} was alive` : ' while no worker was alive'}`,
    };
  });
  if (obs.crash) {
    const cx = x(obs.crash.at);
    labels.push({
      x: cx,
      cls: 'crash-marker',
      text: `✕ ${obs.crash.point} (SIGKILL)`,
      line: `<line x1="${num(cx)}" x2="${num(cx)}" y1="${TOP - 4}" y2="${num(laneY(lanes.length))}"/>`,
      title: `crash point ${obs.crash.point}@${obs.crash.occurrence}: pid ${obs.crash.pid} killed itself at +${((obs.crash.at - t0) / 1000).toFixed(2)} s`,
    });
  }
  const placed = placeLabels(labels, { left: LABEL_W, right: width - 8 });
  const labelRows = Math.max(1, ...placed.map((l) => l.row + 1));
  const height = TOP + lanes.length * LANE_H + 10 + (labelRows + 1) * LABEL_ROW_H;

  const parts: string[] = [];
  parts.push(
    `<svg class="timeline" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="100%" role="img" aria-label="timeline of ${esc(obs.scenario.id)}">`,
  );
  lanes.forEach((name, i) => {
    const y = laneY(i);
    const kind = obs.durableFinal?.kind ?? obs.durableAtCrash?.kind;
    const label =
      name === 'durable'
        ? kind === 'history'
          ? 'history'
          : kind === 'none'
            ? 'nothing durable'
            : 'checkpoints'
        : `worker ${name}`;
    parts.push(`<text class="lane-label" x="4" y="${num(y + LANE_H / 2 + 4)}">${esc(label)}</text>`);
    parts.push(
      `<line class="lane-rule" x1="${LABEL_W}" x2="${width - 8}" y1="${num(y + LANE_H - 2)}" y2="${num(y + LANE_H - 2)}"/>`,
    );
    // A worker restarted by the cell (lease still held) shares its lane with its earlier lives.
    for (const w of workers.filter((wk) => wk.name === name)) {
      const end = w.exitedAt ?? obs.endedAt;
      parts.push(
        `<rect class="worker-life" x="${num(x(w.startedAt))}" y="${num(y + 3)}" width="${num(Math.max(1, x(end) - x(w.startedAt)))}" height="${LANE_H - 8}"><title>${esc(`worker ${name}${w.pid ? ` (pid ${w.pid})` : ''}: alive ${((end - w.startedAt) / 1000).toFixed(2)} s${w.signal ? `, killed by ${w.signal}` : w.exitCode !== null ? `, exit ${w.exitCode}` : ''}${w.peakRssKb ? `, peak RSS ${Math.round(w.peakRssKb / 1024)} MB` : ''}`)}</title></rect>`,
      );
    }
  });

  for (const e of obs.ledger) {
    const lane = laneNames.indexOf(e.worker ?? '?');
    if (lane < 0) continue;
    const y = laneY(lane) + 6;
    const x0 = x(e.at);
    const w = Math.max(3, x(e.at + e.durationMs) - x0);
    const isRepeat = repeated.has(e.seq);
    const cls = ['op', `op-${e.kind}`, isRepeat ? 'op-repeat' : '', e.outcome !== 'ok' ? `op-${e.outcome}` : '']
      .filter(Boolean)
      .join(' ');
    const tip = `${e.step ?? '?'} · ${operationLabel(e)} · ${e.opKey} · ${e.outcome}${e.idempotencyKey ? ' · keyed' : ''}${e.costUsd ? ` · ${money(e.costUsd)}` : ''}${isRepeat ? ' · REPEATED' : ''} · +${((e.at - t0) / 1000).toFixed(2)} s`;
    parts.push(
      `<rect class="${cls}" x="${num(x0)}" y="${num(y)}" width="${num(w)}" height="${LANE_H - 14}" rx="2" fill="${KIND_COLOURS[e.kind] ?? '#64748b'}"><title>${esc(tip)}</title></rect>`,
    );
  }

  const dLane = lanes.length - 1;
  for (const m of durableMarks) {
    const cx = x(m.at!);
    const y = laneY(dLane) + LANE_H / 2 - 1;
    parts.push(
      `<path class="durable-mark" d="M${num(cx)} ${num(y - 6)} L${num(cx + 4)} ${num(y)} L${num(cx)} ${num(y + 6)} L${num(cx - 4)} ${num(y)} Z"><title>${esc(m.long)}</title></path>`,
    );
  }

  for (const l of placed) {
    const y = laneY(lanes.length) + 12 + l.row * LABEL_ROW_H;
    parts.push(
      `<g class="${l.cls}">${l.line}<text x="${num(l.textX)}" y="${num(y)}"${l.anchorEnd ? ' text-anchor="end"' : ''}>${esc(l.text)}</text><title>${esc(l.title)}</title></g>`,
    );
  }
  parts.push(
    `<text class="axis" x="${LABEL_W}" y="${height - 2}">0 s</text><text class="axis" x="${width - 8}" y="${height - 2}" text-anchor="end">${((t1 - t0) / 1000).toFixed(2)} s</text>`,
  );
  parts.push('</svg>');
  return parts.join('');
}
