import { chromium } from 'playwright-core';
import { pathToFileURL } from 'node:url';

/**
 * Opens a report in the system's headless Chromium (never a downloaded browser) with the network
 * switched off as far as flags allow, and reports what a reader would see: errors, and per cell
 * how many things its timeline drew and whether the crash is marked.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface RenderedCell {
  cell: string;
  status: string;
  drawn: number;
  ops: number;
  crashMarkers: number;
  timelineWidth: number;
}

/** One cell of the scorecard as drawn: its word, its background, and whether its link lands on a row. */
export interface RenderedScore {
  line: string;
  word: string;
  background: string;
  linksToRow: boolean;
}

export interface RenderedReport {
  errors: string[];
  requests: string[];
  cells: RenderedCell[];
  bars: number;
  title: string;
  /** The scorecard's column headings and its cells, line by line. */
  scorecard: { columns: string[]; cells: RenderedScore[] };
}

export async function renderReport(htmlPath: string): Promise<RenderedReport> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') errors.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    page.on('request', (r) => {
      if (!r.url().startsWith('file:')) requests.push(r.url());
    });
    await page.goto(pathToFileURL(htmlPath).href, { waitUntil: 'load' });
    const cells = await page.$$eval('section.cell', (sections) =>
      sections.map((s) => {
        const svg = s.querySelector('svg.timeline');
        return {
          cell: s.getAttribute('data-cell') ?? '',
          status: s.getAttribute('data-status') ?? '',
          drawn: svg ? svg.querySelectorAll('rect, path, line, circle').length : 0,
          ops: svg ? svg.querySelectorAll('rect.op').length : 0,
          crashMarkers: svg ? svg.querySelectorAll('.crash-marker line').length : 0,
          timelineWidth: svg ? Math.round(svg.getBoundingClientRect().width) : 0,
        };
      }),
    );
    const bars = await page.$$eval('svg.cost-chart rect.bar', (r) => r.length);
    const columns = await page.$$eval('table.scorecard tr:first-child th:not(.line)', (ths) =>
      ths.map((th) => th.textContent ?? ''),
    );
    const scores = await page.$$eval('table.scorecard tr[data-line] td:not(.line)', (tds) =>
      tds.map((td) => {
        const href = td.querySelector('a')?.getAttribute('href') ?? '';
        return {
          line: td.closest('tr')?.getAttribute('data-line') ?? '',
          word: td.textContent ?? '',
          background: getComputedStyle(td).backgroundColor,
          linksToRow: href.startsWith('#') && document.getElementById(href.slice(1)) !== null,
        };
      }),
    );
    return { errors, requests, cells, bars, title: await page.title(), scorecard: { columns, cells: scores } };
  } finally {
    await browser.close();
  }
}

/** A box as Chromium laid it out, in page pixels. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What a reader of the drawings sees: every label of every timeline, and the cost chart's series and legend. */
export interface RenderedDrawings {
  errors: string[];
  timelines: { id: string; svg: Box; labels: { text: string; box: Box }[] }[];
  legend: { series: string; label: string; fill: string; stroke: string; box: Box }[];
  bars: { series: string; fill: string; stroke: string }[];
}

export async function renderDrawings(htmlPath: string): Promise<RenderedDrawings> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    await page.goto(pathToFileURL(htmlPath).href, { waitUntil: 'load' });
    const timelines = await page.$$eval('svg.timeline', (svgs) =>
      svgs.map((svg) => {
        const b = (r: DOMRect) => ({ x: r.x, y: r.y, width: r.width, height: r.height });
        return {
          id: svg.getAttribute('aria-label') ?? '',
          svg: b(svg.getBoundingClientRect()),
          labels: [...svg.querySelectorAll('text')].map((t) => ({
            text: t.textContent ?? '',
            box: b(t.getBoundingClientRect()),
          })),
        };
      }),
    );
    const legend = await page.$$eval('svg.cost-chart .legend-entry', (gs) =>
      gs.map((g) => {
        const swatch = g.querySelector('rect')!;
        const text = g.querySelector('text')!;
        const r = text.getBoundingClientRect();
        return {
          series: g.getAttribute('data-series') ?? '',
          label: text.textContent ?? '',
          fill: getComputedStyle(swatch).fill,
          stroke: getComputedStyle(swatch).stroke,
          box: { x: r.x, y: r.y, width: r.width, height: r.height },
        };
      }),
    );
    const bars = await page.$$eval('svg.cost-chart rect.bar', (rs) =>
      rs.map((r) => ({
        series: r.getAttribute('data-series') ?? '',
        fill: getComputedStyle(r).fill,
        stroke: getComputedStyle(r).stroke,
      })),
    );
    return { errors, timelines, legend, bars };
  } finally {
    await browser.close();
  }
}

/** Whether two laid-out boxes share any pixel. */
export function overlap(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** One label of the scorecard as laid out: its text's extent, line by line, and the cell it sits in. */
export interface LaidOutLabel {
  line: string;
  column: string;
  word: string;
  /** The box around all of the text. */
  label: Box;
  /** One box per line the text was broken into. */
  lines: Box[];
  /** The text's computed font size, in px. */
  fontSize: number;
  cell: Box;
}

/**
 * The scorecard's labels at each viewport width: where the text of every cell (the verdict word,
 * not the link box around it, which always fills its cell) and of every column heading was drawn,
 * beside its cell's box. A heading's `line` is empty.
 */
export async function layOutScorecard(htmlPath: string, widths: number[]): Promise<Map<number, LaidOutLabel[]>> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
  try {
    const out = new Map<number, LaidOutLabel[]>();
    for (const width of widths) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.goto(pathToFileURL(htmlPath).href, { waitUntil: 'load' });
      out.set(
        width,
        await page.$$eval('table.scorecard tr :is(th, td):not(.line)', (cells) => {
          const columns = [...document.querySelectorAll('table.scorecard tr:first-child th')].map(
            (th) => th.textContent ?? '',
          );
          const b = (r: DOMRect) => ({ x: r.x, y: r.y, width: r.width, height: r.height });
          return cells.map((cell) => {
            const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
            const lines: DOMRect[] = [];
            let fontSize = Infinity;
            for (let n = walker.nextNode(); n; n = walker.nextNode()) {
              fontSize = Math.min(fontSize, parseFloat(getComputedStyle(n.parentElement!).fontSize));
              const range = document.createRange();
              range.selectNodeContents(n);
              lines.push(...[...range.getClientRects()].filter((r) => r.width > 0));
            }
            const left = Math.min(...lines.map((r) => r.left));
            const top = Math.min(...lines.map((r) => r.top));
            return {
              line: cell.closest('tr')?.getAttribute('data-line') ?? '',
              column: columns[(cell as HTMLTableCellElement).cellIndex] ?? '',
              word: cell.textContent ?? '',
              label: {
                x: left,
                y: top,
                width: Math.max(...lines.map((r) => r.right)) - left,
                height: Math.max(...lines.map((r) => r.bottom)) - top,
              },
              lines: lines.map(b),
              fontSize,
              cell: b(cell.getBoundingClientRect()),
            };
          });
        }),
      );
      await page.close();
    }
    return out;
  } finally {
    await browser.close();
  }
}

/** Whether box `inner` lies within box `outer` (half a pixel of rounding allowed). */
export function inside(inner: Box, outer: Box): boolean {
  const e = 0.5;
  return (
    inner.x >= outer.x - e &&
    inner.y >= outer.y - e &&
    inner.x + inner.width <= outer.x + outer.width + e &&
    inner.y + inner.height <= outer.y + outer.height + e
  );
}
