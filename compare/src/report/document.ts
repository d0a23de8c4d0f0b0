/**
 * One report model for every command (compare, chaos, bench): a document is a title, the lines
 * that say where its figures come from, and sections of blocks (paragraphs, lists, tables,
 * charts). The figures are put into words once, by the command that owns them; render-text.ts,
 * render-markdown.ts and render-html.ts draw any document the same way, so the terminal, the
 * Markdown file and the HTML page cannot drift apart.
 *
 * Prose (meta lines, paragraphs, list items) may carry `**bold**` and `` `code` ``: the terminal
 * drops the marks, Markdown keeps them, HTML turns them into tags. Table cells are plain text.
 * Text a run took from outside (the environment, a server's answer, a URL, a masked secret) goes
 * into prose through `literal` or `code`, never as it came: a `*` in a password is no bold.
 */
export type Medium = 'text' | 'markdown' | 'html';

/** The characters prose markup (and Markdown around it) gives a meaning to. */
const MARKUP = /[\\`*_<>[\]~&#|!]/g;

/** Outside text as prose shows it, every mark in it escaped (a backslash, as Markdown reads it). */
export function literal(text: string): string {
  return text.replace(MARKUP, (c) => `\\${c}`);
}

/** Outside text as a code span: fenced by more backticks than it holds (Markdown's rule), so nothing in it is markup. */
export function code(text: string): string {
  const fence = '`'.repeat(Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length)) + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** A stretch of prose and its marks: what each renderer draws its own way. */
export interface InlinePart {
  text: string;
  bold?: true;
  code?: true;
}

/**
 * Prose split at its marks, as Markdown reads them: a backslash before punctuation is that
 * character, a code span is closed by a run of as many backticks and holds no marks, `**` opens
 * bold only where another closes it.
 */
export function inlineParts(text: string): InlinePart[] {
  const parts: InlinePart[] = [];
  let bold = false;
  let buf = '';
  const flush = () => {
    if (buf) parts.push({ text: buf, ...(bold ? { bold: true as const } : {}) });
    buf = '';
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\\' && /[!-/:-@[-`{-~]/.test(text[i + 1] ?? '')) {
      buf += text[i + 1];
      i += 2;
    } else if (c === '`') {
      const fence = /^`+/.exec(text.slice(i))![0];
      const close = new RegExp(`(?<!\`)${fence}(?!\`)`, 'g');
      close.lastIndex = i + fence.length;
      const end = close.exec(text);
      if (!end) {
        buf += fence;
        i += fence.length;
        continue;
      }
      flush();
      let inner = text.slice(i + fence.length, end.index);
      if (inner.length > 1 && inner.startsWith(' ') && inner.endsWith(' ') && inner.trim()) inner = inner.slice(1, -1);
      parts.push({ text: inner, code: true, ...(bold ? { bold: true as const } : {}) });
      i = end.index + fence.length;
    } else if (text.startsWith('**', i) && (bold || text.indexOf('**', i + 2) > i + 2)) {
      flush();
      bold = !bold;
      i += 2;
    } else {
      buf += c;
      i++;
    }
  }
  flush();
  return parts;
}

/** How a cell or paragraph reads: red and bold (bad), green (ok), amber (warn), dim (muted). */
export type Tone = 'bad' | 'ok' | 'warn' | 'muted';

export interface Column {
  title: string;
  /** Right-aligned (and tabular figures in HTML). */
  numeric?: boolean;
  /** In the terminal: a fixed width, longer text cut with an ellipsis. Without one the column fits its widest cell. */
  width?: number;
  /** In the terminal: this (last) column wraps under itself instead of being cut. */
  wrap?: boolean;
  /** The terminal's shorter title, where the full one does not fit its width. */
  textTitle?: string;
  /** The media that show this column (all by default). */
  only?: readonly Medium[];
  /** HTML: a class on the column's heading and on each of its cells. */
  class?: string;
}

export interface Cell {
  text: string;
  tone?: Tone;
  /** Bold (what a Markdown reader must not miss: a duplicate, a row unlike its baseline). */
  strong?: boolean;
  /** Extra HTML classes (the document's stylesheet names them). */
  class?: string;
  /** HTML: the cell is a link to this address or anchor. */
  href?: string;
  /** HTML: the longer text shown on hover. */
  hover?: string;
  /** HTML: a small aside after the text (`<small>`). */
  aside?: string;
}

export interface Row {
  cells: readonly (string | Cell)[];
  /** HTML: the row's anchor. */
  id?: string;
  /** HTML: data-* attributes the tests and readers select rows by. */
  data?: Record<string, string>;
  /** HTML: a row of its own under this one (a picture, a note across the columns), already drawn. */
  htmlAfter?: string;
  /**
   * Terminal: lines under the row (dim, unless toned), wrapped under its second column in a table
   * of fixed widths.
   */
  textAfter?: readonly (string | { text: string; tone: Tone })[];
}

export interface Table {
  columns: readonly Column[];
  rows: readonly Row[];
  /** A title over the table (HTML caption, bold line in Markdown, indented line in the terminal). */
  caption?: string;
  /** HTML: the table's class. */
  class?: string;
  /** Terminal: the column titles and their rule (default true). */
  head?: boolean;
  /** Terminal: spaces before every line. */
  indent?: number;
}

interface Shown {
  /** The media that show this block (all by default). */
  only?: readonly Medium[];
}

export type Block = Shown &
  (
    | {
        kind: 'paragraph';
        text: string;
        /** note: small and muted; lesson: what to learn from the section (a box in HTML, ▸ in the terminal). */
        style?: 'note' | 'lesson' | 'plain';
        tone?: Tone;
        /** HTML: the paragraph's class instead of the style's. */
        class?: string;
      }
    | { kind: 'list'; items: readonly ListItem[]; class?: string }
    | { kind: 'table'; table: Table }
    /** A drawing: inline SVG (or HTML around it) in HTML; the summary, if any, elsewhere. */
    | { kind: 'chart'; html: string; summary?: string }
    /** HTML only, already drawn: what has no text form (the cards of a campaign's violations). */
    | { kind: 'html'; html: string }
  );

/** A list item: its text, and lines under it (indented in the terminal). */
export type ListItem = string | { text: string; sub: readonly string[] };

export interface Section extends Shown {
  heading?: string;
  /** The terminal's heading, where it says more than the others (its section id, say). */
  textHeading?: string;
  /** HTML anchor. */
  id?: string;
  /** 2 by default: h2 and ##. */
  level?: 1 | 2 | 3;
  blocks: readonly Block[];
}

export interface ReportDocument {
  /** The page's title (HTML <title>), and its heading unless `heading` says otherwise. */
  title: string;
  heading?: string;
  /** The terminal's first line, where it says more than the heading. */
  textHeading?: string;
  /** Where the figures come from: under the heading (prose). */
  meta: readonly string[];
  /** The media that show the meta lines (all by default). */
  metaOnly?: readonly Medium[];
  sections: readonly Section[];
  /** HTML: rules added to REPORT_CSS, from style.ts. */
  css?: string;
  /** Terminal: prose wraps at this width (unwrapped without one). */
  width?: number;
}

export const cellOf = (c: string | Cell): Cell => (typeof c === 'string' ? { text: c } : c);

export const shows = (x: Shown, medium: Medium): boolean => !x.only || x.only.includes(medium);

/** The visible columns for a medium, with each one's index into the row's cells. */
export function columnsFor(t: Table, medium: Medium): { column: Column; index: number }[] {
  return t.columns.map((column, index) => ({ column, index })).filter(({ column }) => shows(column, medium));
}
