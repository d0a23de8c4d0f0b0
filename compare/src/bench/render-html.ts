import { REPORT_CSS } from '../report/style.ts';
import { esc } from '../report/svg.ts';
import { recoveryChart, perStepChart, storageChart, throughputChart } from './charts.ts';
import { findings, provenanceLine } from './findings.ts';
import type { BenchReport } from './report.ts';
import { allTables, type Table } from './tables.ts';

/** bench.html: one file, no network (inline CSS and SVG, no script): the findings, four charts, every table. */
const CSS = `
.note { margin: 2px 0 8px; }
ul.findings li { margin: 4px 0; }
table { margin: 6px 0 14px; } th, td { padding: 3px 6px; }
svg .panel-title { fill: var(--fg); font-size: 12px; font-weight: 600; }
svg .bar.hardened { opacity: .45; } svg .whisker { stroke: #0f172a; stroke-width: 1.3; }
svg .fit { fill: none; stroke-width: 2; } svg .limit { stroke: var(--bad); stroke-dasharray: 5 4; } svg .limit-label { fill: var(--bad); }
svg .diagonal { stroke: #cbd5e1; stroke-dasharray: 3 3; } svg .lost { fill: var(--bad); font-weight: 600; } svg .kept { fill: var(--ok); }
.empty { color: var(--muted); font-style: italic; }
`;

function inline(text: string): string {
  return esc(text)
    .replace(/\*\*(.+?)\*\*/g, '<b>$1</b>')
    .replace(/`(.+?)`/g, '<code>$1</code>');
}

function table(t: Table): string {
  const head = `<tr>${t.head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr>`;
  const rows = t.rows
    .map(
      (r) => `<tr>${r.map((c, i) => `<td${t.numeric.includes(i) ? ' class="num"' : ''}>${esc(c)}</td>`).join('')}</tr>`,
    )
    .join('');
  return `<h2>${esc(t.title)}</h2><p class="note">${esc(t.note)}</p><table>${head}${rows}</table>`;
}

export function renderBenchHtml(r: BenchReport): string {
  const charts = [
    ['Per-step cost as a multiple of the floor', perStepChart(r)],
    ['Throughput', throughputChart(r)],
    ['Storage growth', storageChart(r)],
    ['The recovery trade', recoveryChart(r)],
  ]
    .map(([title, svg]) => `<h2>${esc(title)}</h2>${svg}`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>What durability costs</title><style>${REPORT_CSS}${CSS}</style></head><body>
<h1>What durability costs</h1><p class="meta">${inline(provenanceLine(r))}</p>
<ul class="findings">${findings(r)
    .map((f) => `<li>${inline(f)}</li>`)
    .join('')}</ul>
${charts}
${allTables(r).map(table).join('\n')}
</body></html>
`;
}
