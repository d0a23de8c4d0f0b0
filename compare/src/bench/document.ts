import type { ReportDocument } from '../report/document.ts';
import { BENCH_CSS } from '../report/style.ts';
import { perStepChart, recoveryChart, storageChart, throughputChart } from './charts.ts';
import { findings, provenanceLine } from './findings.ts';
import type { BenchReport } from './report.ts';
import { tableSections } from './tables.ts';

/**
 * The bench's report document, for the terminal, bench.md and bench.html: the findings first (the
 * part a README quotes), the four charts (in HTML), then every table with its note.
 */
export function benchDocument(r: BenchReport): ReportDocument {
  const charts: [string, string][] = [
    ['Per-step cost as a multiple of the floor', perStepChart(r)],
    ['Throughput', throughputChart(r)],
    ['Storage growth', storageChart(r)],
    ['The recovery trade', recoveryChart(r)],
  ];
  return {
    title: 'What durability costs',
    meta: [provenanceLine(r)],
    css: BENCH_CSS,
    sections: [
      { blocks: [{ kind: 'list', class: 'findings', items: findings(r) }] },
      ...charts.map(([heading, html]) => ({
        heading,
        only: ['html'] as const,
        blocks: [{ kind: 'chart' as const, html }],
      })),
      ...tableSections(r),
    ],
  };
}
