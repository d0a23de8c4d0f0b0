import { describe, expect, it } from 'vitest';
import type { ReportDocument } from './document.ts';
import { toHtml } from './render-html.ts';
import { toMarkdown } from './render-markdown.ts';
import { toText } from './render-text.ts';

/** One document with a bit of everything, drawn three ways. */
const doc: ReportDocument = {
  title: 'What it costs',
  meta: ['measured by `pnpm bench` on **two** cores'],
  css: '.extra { color: red; }',
  sections: [
    { blocks: [{ kind: 'list', class: 'findings', items: ['a step costs **3 ms**'] }] },
    { heading: 'Drawn', only: ['html'], blocks: [{ kind: 'chart', html: '<svg class="c"></svg>' }] },
    {
      heading: 'Figures',
      id: 'figures',
      blocks: [
        { kind: 'paragraph', style: 'note', text: 'per step, median' },
        {
          kind: 'table',
          table: {
            class: 'figures',
            columns: [
              { title: 'runtime' },
              { title: 'ms', numeric: true },
              { title: 'page only', only: ['html', 'markdown'] },
            ],
            rows: [
              {
                id: 'row-a',
                data: { runtime: 'a' },
                cells: [{ text: 'a|b', href: '#a' }, { text: '12', tone: 'bad', strong: true }, 'x'],
              },
              { cells: ['longer name', '3', 'y'] },
            ],
          },
        },
        { kind: 'paragraph', style: 'lesson', text: 'fewer boundaries, more repeated', only: ['text'] },
        { kind: 'chart', html: '<svg></svg>', summary: 'the chart in words' },
      ],
    },
  ],
};

describe('one report document, three media', () => {
  it('the terminal: padded columns, numbers right-aligned, marks dropped, colour only when asked, no page-only column', () => {
    const text = toText(doc);
    const lines = text.split('\n');
    expect(lines[0]).toBe('What it costs');
    expect(lines[1]).toBe('measured by pnpm bench on two cores');
    expect(text).toContain('- a step costs 3 ms');
    expect(text).not.toContain('Drawn');
    expect(lines).toContain('runtime      ms');
    expect(lines).toContain('a|b          12');
    expect(lines).toContain('longer name   3');
    expect(text).not.toContain('page only');
    expect(text).toContain('  ▸ fewer boundaries, more repeated');
    expect(text).toContain('the chart in words');
    expect(text).not.toContain('\x1b[');
    expect(toText(doc, { color: true })).toContain('\x1b[31;1m12\x1b[0m');
  });

  it('fixed widths cut a cell with an ellipsis, and a wrapping last column wraps under itself', () => {
    const t = toText({
      title: 't',
      meta: [],
      width: 30,
      sections: [
        {
          blocks: [
            {
              kind: 'table',
              table: {
                head: false,
                indent: 2,
                columns: [
                  { title: 'a', width: 5 },
                  { title: 'b', wrap: true },
                ],
                rows: [{ cells: ['abcdefgh', 'one two three four five six seven'] }],
              },
            },
          ],
        },
      ],
    });
    expect(t.split('\n').slice(2)).toEqual(['  abcd… one two three four', '        five six seven']);
  });

  it('Markdown: a heading per section, the table with its alignment, pipes escaped, bold kept', () => {
    const md = toMarkdown(doc);
    expect(md).toMatch(/^# What it costs\n\nmeasured by `pnpm bench` on \*\*two\*\* cores\n/);
    expect(md).toContain(
      '## Figures\n\nper step, median\n\n| runtime | ms | page only |\n|---|--:|---|\n| a\\|b | **12** | x |',
    );
    expect(md).not.toContain('Drawn');
    expect(md).not.toContain('fewer boundaries');
    expect(md).toContain('the chart in words');
    expect(md.endsWith('\n')).toBe(true);
  });

  it('HTML: the one stylesheet and the document’s own rules, anchors, links, tones, data attributes, charts inline', () => {
    const html = toHtml(doc);
    expect(html).toContain('<title>What it costs</title>');
    expect(html).toMatch(/<style>[\s\S]*--fg:[\s\S]*\.extra \{ color: red; \}<\/style>/);
    expect(html).toContain('<p class="meta">measured by <code>pnpm bench</code> on <b>two</b> cores</p>');
    expect(html).toContain('<ul class="findings"><li>a step costs <b>3 ms</b></li></ul>');
    expect(html).toContain('<h2>Drawn</h2><svg class="c"></svg>');
    expect(html).toContain('<h2 id="figures">Figures</h2>');
    expect(html).toContain(
      '<tr id="row-a" data-runtime="a"><td><a href="#a">a|b</a></td><td class="num bad"><b>12</b></td><td>x</td></tr>',
    );
    expect(html).not.toContain('fewer boundaries');
    expect(html).not.toContain('the chart in words');
  });
});
