import { WRITERS_CSS } from './writers-chart.ts';

/**
 * The one stylesheet every report opens with (report.html, chaos.html, bench.html): the same
 * colours, type, tables and chart text, so a reader moving between them reads one document. Each
 * report adds only the rules of its own pictures.
 */
export const REPORT_CSS = `
:root { --fg:#0f172a; --muted:#64748b; --line:#e2e8f0; --bad:#dc2626; --ok:#16a34a; --warn:#d97706; --bg:#fff; --card:#f8fafc; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); margin: 0 auto; max-width: 1150px; padding: 24px; }
h1 { font-size: 24px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 28px 0 6px; border-bottom: 2px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 14px; margin: 0; }
.meta { color: var(--muted); margin: 0 0 14px; } .meta code { color: var(--fg); }
table { border-collapse: collapse; width: 100%; font-size: 12.5px; margin: 8px 0; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 6px; text-align: left; vertical-align: top; }
th { background: var(--card); font-weight: 600; } td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.lesson { background: #eff6ff; border-left: 4px solid #2563eb; padding: 8px 12px; margin: 8px 0 12px; }
.small, .note { font-size: 12.5px; color: var(--muted); }
svg text { font: 11px system-ui, sans-serif; fill: #334155; } svg .axis { fill: var(--muted); font-size: 10.5px; } svg .grid { stroke: #e2e8f0; }
a { color: #2563eb; }
@media print { body { padding: 0; max-width: none; font-size: 11px; } h2 { break-after: avoid; } }
`;

/** What every document drawn by render-html.ts adds: its tones on cells and paragraphs. */
export const DOCUMENT_CSS = `
td.bad, p.bad { color: var(--bad); font-weight: 700; } td.ok, p.ok { color: var(--ok); font-weight: 600; }
td.warn, p.warn { color: var(--warn); } td.muted, p.muted { color: var(--muted); }
.empty { color: var(--muted); font-style: italic; }
`;

/** bench.html's own rules: its findings and the pictures of charts.ts. */
export const BENCH_CSS = `
.note { margin: 2px 0 8px; }
ul.findings li { margin: 4px 0; }
table { margin: 6px 0 14px; } th, td { padding: 3px 6px; }
svg .panel-title { fill: var(--fg); font-size: 12px; font-weight: 600; }
svg .bar.hardened { opacity: .45; } svg .whisker { stroke: #0f172a; stroke-width: 1.3; }
svg .fit { fill: none; stroke-width: 2; } svg .limit { stroke: var(--bad); stroke-dasharray: 5 4; } svg .limit-label { fill: var(--bad); }
svg .diagonal { stroke: #cbd5e1; stroke-dasharray: 3 3; } svg .lost { fill: var(--bad); font-weight: 600; } svg .kept { fill: var(--ok); }
`;

/** chaos.html's own rules: the cards of its violations and the legend of its timeline. */
export const CHAOS_CSS = `
.card { border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px; margin: 10px 0; background: var(--card); break-inside: avoid; }
.card header { display: flex; gap: 10px; align-items: baseline; flex-wrap: wrap; }
.card .why { color: var(--bad); } .card code { font-size: 12px; }
.badge { font-size: 11px; padding: 1px 7px; border-radius: 10px; background: #fee2e2; }
.legend span { display: inline-block; margin-right: 14px; font-size: 12px; } .legend i { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 4px; vertical-align: -1px; }
`;

/** report.html's production hazards: their tables, and the two writers' picture under its row. */
export const PRODUCTION_CSS = `
.hazard td.verdict { font-weight: 600; } .hazard td.bad { color: var(--bad); } .hazard td.figures { color: var(--muted); }
.hazard caption { text-align: left; font-weight: 600; padding: 6px 0 2px; }
${WRITERS_CSS}`;

/** report.html's granularity suite: its chart of the trade and its table. */
export const GRANULARITY_CSS = `
svg .point text { font-size: 11px; } svg .trade { stroke-dasharray: 4 3; }
table.granularity td.cost { color: var(--muted); }
svg .panel-title { font-size: 12px; font-weight: 600; }
`;
