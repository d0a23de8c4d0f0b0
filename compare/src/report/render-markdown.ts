import { cellOf, columnsFor, shows, type Block, type ReportDocument, type Section, type Table } from './document.ts';

/**
 * A report document as Markdown, for a pull request or a wiki page: the heading, the meta lines,
 * each section under its own heading. Charts give their summary line, if they have one; what only
 * HTML can show is left out.
 */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function table(t: Table): string[] {
  const columns = columnsFor(t, 'markdown');
  const out = t.caption ? [`**${t.caption}**`, ''] : [];
  out.push(
    `| ${columns.map(({ column }) => cell(column.title)).join(' | ')} |`,
    `|${columns.map(({ column }) => (column.numeric ? '--:' : '---')).join('|')}|`,
  );
  for (const r of t.rows)
    out.push(
      `| ${columns
        .map(({ index }) => {
          const c = cellOf(r.cells[index] ?? '');
          return c.strong ? `**${cell(c.text)}**` : cell(c.text);
        })
        .join(' | ')} |`,
    );
  return out;
}

function block(b: Block): string[] {
  switch (b.kind) {
    case 'paragraph':
      return [b.text];
    case 'list':
      return b.items.map((item) =>
        typeof item === 'string' ? `- ${item}` : [`- ${item.text}`, ...item.sub.map((s) => `  ${s}`)].join('\n'),
      );
    case 'table':
      return table(b.table);
    case 'chart':
      return b.summary ? [b.summary] : [];
    case 'html':
      return [];
  }
}

/** One section's lines, each block followed by a blank line. */
export function sectionMarkdown(section: Section): string[] {
  if (!shows(section, 'markdown')) return [];
  const out: string[] = [];
  if (section.heading) out.push(`${'#'.repeat(section.level ?? 2)} ${section.heading}`, '');
  for (const b of section.blocks) {
    if (!shows(b, 'markdown')) continue;
    const lines = block(b);
    if (lines.length) out.push(...lines, '');
  }
  return out;
}

export function toMarkdown(doc: ReportDocument): string {
  const out = [`# ${doc.heading ?? doc.title}`, ''];
  if (!doc.metaOnly || doc.metaOnly.includes('markdown')) for (const m of doc.meta) out.push(m, '');
  for (const section of doc.sections) out.push(...sectionMarkdown(section));
  return `${out.join('\n').trimEnd()}\n`;
}
