import { fit, TABLE_WIDTH, wrap } from '../table.ts';
import {
  cellOf,
  columnsFor,
  inlineParts,
  shows,
  type Block,
  type ReportDocument,
  type Section,
  type Table,
  type Tone,
} from './document.ts';

/**
 * A report document in the terminal: the heading and where the figures come from, then each
 * section (its heading, its paragraphs, its tables with padded columns). Colour only when asked;
 * charts show their summary line, if they have one.
 */
const TONE_CODES: Record<Tone, string> = { bad: '31;1', ok: '32', warn: '33', muted: '2' };

/** The marks of inline prose (bold, code, escapes) are for Markdown and HTML. */
export function plain(text: string): string {
  return inlineParts(text)
    .map((p) => p.text)
    .join('');
}

export interface TextOptions {
  color?: boolean;
  /** Prose wraps at this width (unwrapped without one). */
  width?: number;
}

export function toText(doc: ReportDocument, o: { color?: boolean } = {}): string {
  const t: TextOptions = { ...o, ...(doc.width ? { width: doc.width } : {}) };
  const out: string[] = [plain(doc.textHeading ?? doc.heading ?? doc.title)];
  if (!doc.metaOnly || doc.metaOnly.includes('text')) for (const m of doc.meta) out.push(...prose(m, '', t));
  for (const section of doc.sections) {
    const lines = sectionText(section, t);
    if (lines.length) out.push('', ...lines);
  }
  return out.join('\n');
}

function painter(o: TextOptions) {
  return (code: string | undefined, text: string) => (o.color && code && text ? `\x1b[${code}m${text}\x1b[0m` : text);
}

function prose(text: string, indent: string, o: TextOptions): string[] {
  return o.width ? wrap(plain(text), o.width, indent) : [`${indent}${plain(text)}`];
}

/** One section's lines: its heading (bold cyan in colour), then its blocks. Nothing if the terminal shows none of it. */
export function sectionText(section: Section, o: TextOptions): string[] {
  if (!shows(section, 'text')) return [];
  const paint = painter(o);
  const lines: string[] = [];
  const heading = section.textHeading ?? section.heading;
  if (heading) lines.push(paint('1;36', plain(heading)));
  for (const b of section.blocks) if (shows(b, 'text')) lines.push(...block(b, o));
  return lines;
}

function block(b: Block, o: TextOptions): string[] {
  const paint = painter(o);
  switch (b.kind) {
    case 'paragraph': {
      const code = b.tone ? TONE_CODES[b.tone] : b.style === 'lesson' ? '2' : undefined;
      const lines = prose(b.text, b.style === 'lesson' ? '  ▸ ' : b.style === 'note' ? '  ' : '', o);
      return lines.map((l) => paint(code, l));
    }
    case 'list':
      return b.items.flatMap((item) =>
        typeof item === 'string'
          ? prose(item, '- ', o)
          : [...prose(item.text, '- ', o), ...item.sub.map((s) => `    ${plain(s)}`)],
      );
    case 'table':
      return table(b.table, o);
    case 'chart':
      return b.summary ? prose(b.summary, '', o) : [];
    case 'html':
      return [];
  }
}

function table(t: Table, o: TextOptions): string[] {
  const paint = painter(o);
  const columns = columnsFor(t, 'text').map(({ column, index }) => ({ ...column, index }));
  const pad = ' '.repeat(t.indent ?? 0);
  const fixed = columns.some((c) => c.width !== undefined);
  const gap = fixed ? ' ' : '  ';
  const rows = t.rows.map((r) => columns.map(({ index }) => cellOf(r.cells[index] ?? '')));
  const titles = columns.map((c) => c.textTitle ?? c.title);
  const widths = columns.map((c, i) => c.width ?? Math.max(titles[i]!.length, ...rows.map((r) => r[i]!.text.length)));
  // Each cell padded (or cut) to its column; a wrapping last column is left as it is.
  const padded = (texts: string[]) =>
    texts.map((text, i) => {
      const c = columns[i]!;
      if (c.wrap && i === texts.length - 1) return text;
      if (fixed) return fit(text, widths[i]!, c.numeric ? 'right' : undefined);
      return c.numeric ? text.padStart(widths[i]!) : text.padEnd(widths[i]!);
    });
  const out: string[] = [];
  if (t.caption) out.push(`${' '.repeat(Math.max(0, pad.length - 2))}${t.caption}`);
  if (t.head !== false)
    out.push(
      paint('1', `${pad}${padded(titles).join(gap)}`.trimEnd()),
      `${pad}${widths.map((w) => '─'.repeat(w)).join(gap)}`,
    );
  for (const [ri, cells] of rows.entries()) {
    const parts = padded(cells.map((c) => c.text));
    // Painted after padding: the escapes take no columns.
    const painted = parts.map((p, i) => {
      const c = cells[i]!;
      return paint(c.tone ? TONE_CODES[c.tone] : c.strong ? '1' : undefined, p);
    });
    if (columns.at(-1)?.wrap) {
      const offset = pad.length + parts.slice(0, -1).reduce((n, p) => n + p.length + gap.length, 0);
      const tail = wrap(parts.at(-1)!, o.width ?? TABLE_WIDTH, ' '.repeat(offset));
      const tone = cells.at(-1)!.tone;
      const code = tone && TONE_CODES[tone];
      out.push(
        `${pad}${painted.slice(0, -1).join(gap)}${gap}${paint(code, (tail[0] ?? '').trimStart())}`,
        ...tail.slice(1).map((l) => l.slice(0, offset) + paint(code, l.slice(offset))),
      );
    } else out.push(`${pad}${painted.join(gap)}`.trimEnd());
    // Under the second column where the widths are fixed (a distribution under its row's label).
    const under = fixed ? ' '.repeat(pad.length + widths[0]! + gap.length) : `${pad}  `;
    for (const after of t.rows[ri]!.textAfter ?? []) {
      const { text, tone } = typeof after === 'string' ? { text: after, tone: 'muted' as const } : after;
      const lines = fixed ? wrap(plain(text), o.width ?? TABLE_WIDTH, under) : [`${under}${plain(text)}`];
      out.push(...lines.map((l) => paint(TONE_CODES[tone], l)));
    }
  }
  return out;
}
