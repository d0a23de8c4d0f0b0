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
