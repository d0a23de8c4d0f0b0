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
