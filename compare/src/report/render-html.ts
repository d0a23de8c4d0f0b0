import {
  cellOf,
  columnsFor,
  inlineParts,
  shows,
  type Block,
  type Cell,
  type Column,
  type ReportDocument,
  type Section,
  type Table,
} from './document.ts';
import { DOCUMENT_CSS, REPORT_CSS } from './style.ts';
import { esc } from './svg.ts';

/**
 * A report document as one HTML file, no network (inline CSS and SVG, no script), readable on
 * screen and on paper: the one stylesheet of every report, plus the document's own few rules.
 */
export function inline(text: string): string {
  return inlineParts(text)
    .map((p) => {
      const shown = p.code ? `<code>${esc(p.text)}</code>` : esc(p.text);
      return p.bold ? `<b>${shown}</b>` : shown;
    })
    .join('');
}

const classAttr = (...names: (string | undefined | false)[]) => {
  const list = names.filter(Boolean).join(' ');
  return list ? ` class="${esc(list)}"` : '';
};

function td(c: Cell, column: Column): string {
  const shown = c.strong ? `<b>${esc(c.text)}</b>` : esc(c.text);
  const text = c.href ? `<a href="${esc(c.href)}">${shown}</a>` : shown;
  const aside = c.aside ? ` <small>${esc(c.aside)}</small>` : '';
  const hover = c.hover !== undefined ? ` title="${esc(c.hover)}"` : '';
  return `<td${classAttr(column.numeric && 'num', column.class, c.class, c.tone)}${hover}>${text}${aside}</td>`;
}

function table(t: Table): string {
  const columns = columnsFor(t, 'html');
  const caption = t.caption ? `<caption>${esc(t.caption)}</caption>` : '';
  const head = `<tr>${columns.map(({ column }) => `<th${classAttr(column.class)}>${esc(column.title)}</th>`).join('')}</tr>`;
  const rows = t.rows.map((r) => {
    const id = r.id ? ` id="${esc(r.id)}"` : '';
    const data = Object.entries(r.data ?? {})
      .map(([k, v]) => ` data-${k}="${esc(v)}"`)
      .join('');
    const cells = columns.map(({ column, index }) => td(cellOf(r.cells[index] ?? ''), column)).join('');
    return `<tr${id}${data}>${cells}</tr>${r.htmlAfter ?? ''}`;
  });
  return `<table${classAttr(t.class)}>${caption}${head}${rows.join('')}</table>`;
}

function block(b: Block): string {
  switch (b.kind) {
    case 'paragraph': {
      if (b.style === 'lesson') return `<div${classAttr(b.class ?? 'lesson', b.tone)}>${inline(b.text)}</div>`;
      return `<p${classAttr(b.class ?? (b.style === 'note' && 'note'), b.tone)}>${inline(b.text)}</p>`;
    }
    case 'list':
      return `<ul${classAttr(b.class)}>${b.items
        .map((item) =>
          typeof item === 'string'
            ? `<li>${inline(item)}</li>`
            : `<li>${inline(item.text)}${item.sub.map((s) => `<div class="note">${inline(s)}</div>`).join('')}</li>`,
        )
        .join('')}</ul>`;
    case 'table':
      return table(b.table);
    case 'chart':
    case 'html':
      return b.html;
  }
}

/** One section: its heading (with its anchor), then its blocks. */
export function sectionHtml(s: Section): string {
  if (!shows(s, 'html')) return '';
  const level = s.level ?? 2;
  const heading = s.heading ? `<h${level}${s.id ? ` id="${esc(s.id)}"` : ''}>${esc(s.heading)}</h${level}>` : '';
  return (
    heading +
    s.blocks
      .filter((b) => shows(b, 'html'))
      .map(block)
      .join('\n')
  );
}

export function toHtml(doc: ReportDocument): string {
  const sections = doc.sections.filter((s) => shows(s, 'html')).map(sectionHtml);
  const meta =
    doc.meta.length && (!doc.metaOnly || doc.metaOnly.includes('html'))
      ? `<p class="meta">${doc.meta.map(inline).join('<br>\n')}</p>`
      : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(doc.title)}</title><style>${REPORT_CSS}${DOCUMENT_CSS}${doc.css ?? ''}</style></head><body>
<h1>${esc(doc.heading ?? doc.title)}</h1>${meta}
${sections.join('\n')}
</body></html>
`;
}
