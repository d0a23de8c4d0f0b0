import type { Cell, ReportDocument, Row, Section } from '@vendor-review/compare/report/document.ts';
import { toHtml } from '@vendor-review/compare/report/render-html.ts';
import { toText } from '@vendor-review/compare/report/render-text.ts';
import { esc, num } from '@vendor-review/compare/report/svg.ts';
import type { CrashTestResults, FindingRow } from './results.ts';

/**
 * The report in compare's style, through compare's own renderers: a scorecard (one row per crash
 * point: what went out again, its cost, whether the run ends as the baseline did, how long the
 * resume took, what the runtime did), the advice under each row, and a timeline per cell in HTML.
 */
const seconds = (ms: number | null): string => (ms === null ? '—' : `${(ms / 1000).toFixed(1)} s`);

function againText(f: FindingRow): Cell {
  if (!f.reached) return { text: 'not reached', tone: 'muted' };
  if (f.again.length === 0) return { text: 'nothing', tone: 'ok' };
  return {
    text: f.again
      .map((r) => `${r.call}${r.extra > 1 ? ` ×${r.extra}` : ''} (${r.withKey ? 'with key' : 'no key'})`)
      .join('; '),
    tone: f.again.every((r) => r.withKey || /^(GET|HEAD) /.test(r.call)) ? 'warn' : 'bad',
    strong: true,
  };
}

function tokensText(f: FindingRow): string {
  const tokens = f.again.reduce((n, r) => n + r.extraInputTokens + r.extraOutputTokens, 0);
  if (!tokens) return '—';
  const costs = f.again.map((r) => r.extraCostUsd).filter((c): c is number => c !== null);
  return `${tokens}${costs.length ? ` ($${costs.reduce((a, b) => a + b, 0).toFixed(4)})` : ''}`;
}

function endText(f: FindingRow): Cell {
  if (f.stuck) return { text: 'did not end', tone: 'bad', strong: true };
  if (f.sameFinal === null) return { text: '—', tone: 'muted' };
  return f.sameFinal ? { text: 'same', tone: 'ok' } : { text: 'differs', tone: 'bad', strong: true };
}

const LANE_H = 22;

/** A cell's two workers on one time axis: each call and step a tick, A's death a cross. */
export function timelineSvg(f: FindingRow, width = 860): string {
  const end = Math.max(1, ...f.timeline.map((e) => e.t));
  const x = (t: number) => 60 + (t / end) * (width - 80);
  const y = (w: 'A' | 'B') => (w === 'A' ? 14 : 14 + LANE_H);
  const colour = { call: '#3b82f6', step: '#0d9488', crash: '#dc2626', done: '#16a34a' } as const;
  const marks = f.timeline.map(
    (e) =>
      `<circle cx="${num(x(e.t))}" cy="${y(e.worker)}" r="${e.kind === 'crash' || e.kind === 'done' ? 5 : 3.5}" fill="${colour[e.kind]}"><title>${esc(`${e.worker} +${e.t} ms: ${e.what}`)}</title></circle>`,
  );
  return `<svg class="ct-timeline" width="${width}" height="${2 * LANE_H + 14}" role="img" aria-label="${esc(`timeline of ${f.id}`)}"><text x="0" y="18" font-size="11">worker A</text><text x="0" y="${18 + LANE_H}" font-size="11">worker B</text><line x1="60" x2="${width - 20}" y1="14" y2="14" stroke="#cbd5e1"/><line x1="60" x2="${width - 20}" y1="${14 + LANE_H}" y2="${14 + LANE_H}" stroke="#cbd5e1"/>${marks.join('')}<text x="${width - 20}" y="${2 * LANE_H + 12}" font-size="10" text-anchor="end">${esc(seconds(end))}</text></svg>`;
}

export function reportDocument(r: CrashTestResults, o: { profile?: boolean } = {}): ReportDocument {
  const rows: Row[] = r.findings.map((f) => ({
    id: `cell-${f.id}`,
    data: { cell: f.id },
    cells: [f.label, againText(f), tokensText(f), endText(f), seconds(f.resumeMs), f.runtimeDid, f.mode],
    textAfter: f.advice.map((a) => ({ text: `▸ ${a}`, tone: /nothing ran twice/.test(a) ? 'muted' : 'warn' })),
    htmlAfter: `<ul class="ct-advice">${f.advice.map((a) => `<li>${esc(a)}</li>`).join('')}</ul>${timelineSvg(f)}`,
  }));
  const scorecard: Section = {
    heading: 'Per crash point',
    blocks: [
      {
        kind: 'table',
        table: {
          columns: [
            { title: 'worker A dies' },
            { title: 'went out again' },
            { title: 'extra tokens', numeric: true },
            { title: 'ends as baseline', textTitle: 'end' },
            { title: 'resume', numeric: true },
            { title: 'the runtime' },
            { title: 'calls' },
          ],
          rows,
        },
      },
    ],
  };
  const baseline: Section = {
    heading: 'Baseline',
    blocks: [
      {
        kind: 'paragraph',
        text: `${r.baseline.calls.length} outbound calls, ${r.baseline.steps.length} steps (${r.baseline.steps.join(', ') || 'none seen'}), ${seconds(r.baseline.ms)}.`,
      },
      {
        kind: 'table',
        table: {
          columns: [
            { title: 'call' },
            { title: '#', numeric: true },
            { title: 'status', numeric: true },
            { title: 'key' },
            { title: 'tokens', numeric: true },
          ],
          rows: r.baseline.calls.map((c) => ({
            cells: [
              c.call,
              String(c.occurrence),
              c.status === null ? 'no answer' : String(c.status),
              c.idempotencyKey ? 'yes' : 'no',
              c.inputTokens === null ? '—' : String((c.inputTokens ?? 0) + (c.outputTokens ?? 0)),
            ],
          })),
        },
      },
    ],
  };
  const profile: Section[] = o.profile
    ? [
        {
          heading: 'Where the time went (--profile)',
          blocks: [
            {
              kind: 'list',
              items: r.findings.map(
                (f) =>
                  `${f.id}: ${Object.entries(f.profile)
                    .map(([k, v]) => `${k} ${seconds(v)}`)
                    .join(', ')}`,
              ),
            },
          ],
        },
      ]
    : [];
  const sdk = Object.entries(r.meta.sdk)
    .map(([k, v]) => `${k} ${v ?? 'not installed'}`)
    .join(', ');
  return {
    title: `crash test: ${r.module}`,
    meta: [
      `${r.runtime} · ${sdk} · Node ${r.meta.node} · ${r.meta.machine.cpus} × ${r.meta.machine.cpuModel} · commit ${r.meta.commit.tool ?? 'unknown'}${r.meta.commit.app ? `, app ${r.meta.commit.app}` : ''}`,
      ...r.meta.infra,
      ...r.meta.notes,
      `worker A leaves by ${r.meta.stop === 'term' ? 'SIGTERM (SIGKILL after the grace period)' : 'SIGKILL'}; ${r.meta.unseen}`,
    ],
    sections: [scorecard, baseline, ...profile],
    css: '.ct-advice{margin:.2em 0 .4em 1em;color:#92400e}.ct-timeline{display:block;margin-bottom:.6em}',
    width: 120,
  };
}

export const renderText = (r: CrashTestResults, o: { color?: boolean; profile?: boolean } = {}): string =>
  toText(reportDocument(r, o), { color: o.color ?? false });
export const renderHtml = (r: CrashTestResults, o: { profile?: boolean } = {}): string => toHtml(reportDocument(r, o));
