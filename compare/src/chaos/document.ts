import { code, literal, type Column, type ReportDocument, type Row, type Section } from '../report/document.ts';
import { CHAOS_CSS } from '../report/style.ts';
import { money, seconds, TABLE_WIDTH } from '../table.ts';
import { clean } from './checker.ts';
import { failureKind, poolLabel, timeline, violationCard } from './drawings.ts';
import type { ChaosResult } from './schema.ts';

/**
 * A campaign's report document, for the terminal and chaos.html: a line per runtime × variant,
 * what struck it and what the checker found (the terminal in at most 120 columns, the faults in
 * one compact column), the verdict on the hardened variants, then the violations, each with the
 * command that replays it. chaos.html adds the campaign drawn in time, why runs ended failed, a
 * card per violation and the schedule.
 */
const TEXT = ['text'] as const;
const PAGE = ['markdown', 'html'] as const;

const COLUMNS: Column[] = [
  { title: 'runtime / variant', width: 19 },
  { title: 'runs', width: 4, numeric: true },
  { title: 'faults k/c/p/x/pg/sv/w/a', width: 24, only: TEXT },
  ...[
    'kills',
    'crash points',
    'pauses',
    'partitions',
    'PG restarts',
    'runtime server restarts',
    'world faults',
    'approvals while down',
  ].map((title) => ({ title, numeric: true, only: PAGE })),
  { title: 'completed', textTitle: 'done', width: 4, numeric: true },
  { title: 'dead-lettered', textTitle: 'dead', width: 4, numeric: true },
  { title: 'false dead letters', textTitle: 'f.dead', width: 6, numeric: true },
  { title: 'stuck', width: 5, numeric: true },
  { title: 'duplicate effects', textTitle: 'dup.eff', width: 7, numeric: true },
  { title: 'late writes', textTitle: 'late', width: 4, numeric: true },
  { title: 'other violations', textTitle: 'other', width: 5, numeric: true },
  { title: 'extra model spend', textTitle: 'extra $', width: 9, numeric: true },
  { title: 'p50', width: 7, numeric: true },
  { title: 'p95', width: 7, numeric: true },
];

export const FAULTS_LEGEND =
  'faults: k kills · c crash points reached · p pauses (SIGSTOP past the lease / heartbeat) · x partitions (cut off from the store and the server for as long) · pg PostgreSQL restarts · ' +
  'sv the runtime’s own server restarted, where it has one · w requests the world faulted · a approvals sent while no worker was alive';

const TERMS_LEGEND =
  'done: completed · dead: ended failed (hardened: dead-lettered) · f.dead: of those, dead-lettered below the cap of the ' +
  'step’s own errors (the ledger shows fewer failed requests of that step: a lost machine spent the budget) · dup.eff: mails or notes the receivers stored beyond one · ' +
  'late: writes or completions accepted from a writer that had lost the run · other: a missing mail, a review unlike the ' +
  'uncrashed one, an outbox row never sent · p50/p95: start to completion of the completed runs, the wait for the approval left out';

const JUDGED =
  "Judged after the campaign quiesced, from the receivers' stores (mails, notes), the world's ledger, the durable records (checkpoints with writer and fencing token, event histories with worker identities) and the outbox rows; never from what a worker printed. Dead-lettered: ended failed (naive: on the error). Duplicate effects: mails or notes the receivers stored beyond one. Late writes: checkpoints, task closes or completions accepted from a writer that had lost the run. Extra model spend: model calls beyond the uncrashed run's. p50/p95: start to completion of the completed runs, the time their approval was waited for left out.";

/** The faults a pool met, in the order the legend names them. */
function faultCounts(f: ChaosResult['rows'][number]['faults']): number[] {
  return [
    f.kill,
    f['crash-point'],
    f.pause,
    f.partition ?? 0,
    f['postgres-restart'],
    f['server-restart'],
    f['world-fault'],
    f['approve-while-down'],
  ];
}

export function faultsCell(f: ChaosResult['rows'][number]['faults']): string {
  return faultCounts(f).join('/');
}

function summaryRow(r: ChaosResult['rows'][number]): Row {
  const f = r.faults;
  const n = (v: number) => String(v);
  const bad = (v: number) => (v > 0 ? { text: String(v), tone: 'bad' as const } : String(v));
  const t = r.timeToCompletionMs;
  return {
    cells: [
      poolLabel(r),
      n(r.runs),
      faultsCell(f),
      ...faultCounts(f).map(n),
      n(r.completed),
      n(r.deadLettered),
      bad(r.falseDeadLetters),
      bad(r.stuck),
      bad(r.duplicateEffects),
      bad(r.lateWrites),
      bad(r.otherViolations),
      money(r.extraSpendUsd),
      seconds(t?.median ?? null),
      seconds(t?.p95 ?? null),
    ],
  };
}

/** Why runs ended failed, per runtime × variant, most frequent first. */
function failureRows(result: ChaosResult): Row[] {
  return result.rows.flatMap((row) => {
    const count = new Map<string, number>();
    for (const r of result.runs.filter((x) => x.pool === row.pool && x.end === 'failed')) {
      const why = failureKind(r.failure ?? 'no reason recorded');
      count.set(why, (count.get(why) ?? 0) + 1);
    }
    return [...count].sort((a, b) => b[1] - a[1]).map(([why, n]) => ({ cells: [poolLabel(row), String(n), why] }));
  });
}

function verdict(result: ChaosResult): Section['blocks'] {
  const hardened = result.rows.filter((r) => r.variant === 'hardened');
  if (!hardened.length) return [];
  if (hardened.every(clean))
    return [
      {
        kind: 'paragraph',
        tone: 'ok',
        only: TEXT,
        text: 'hardened: no stuck run, no duplicate effect, no late write accepted, no false dead letter',
      },
      {
        kind: 'paragraph',
        tone: 'ok',
        only: PAGE,
        text: 'Hardened: no stuck run, no duplicate effect, no late write accepted, no false dead letter.',
      },
    ];
  return [
    { kind: 'paragraph', tone: 'bad', only: TEXT, text: 'hardened: NOT clean (see the violations below)' },
    { kind: 'paragraph', tone: 'bad', only: PAGE, text: 'Hardened: NOT clean, see the violations.' },
  ];
}

export function chaosDocument(
  result: ChaosResult,
  o: { maxViolations?: number; maxCards?: number } = {},
): ReportDocument {
  const m = result.meta;
  const vs = result.violations;
  const maxText = o.maxViolations ?? 20;
  const maxCards = o.maxCards ?? 300;
  const versions = Object.entries(m.versions)
    .filter(([, v]) => v)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  const gaps = Object.entries(m.schedule.gapsMs)
    .map(([k, v]) => `${k} every ${(v / 1000).toFixed(0)} s`)
    .join(', ');
  const failed = failureRows(result);
  return {
    title: `Chaos campaign, seed ${m.seed}`,
    heading: `Chaos campaign${m.replayOf ? `: replay of ${m.replayOf}` : ''}`,
    textHeading: `chaos campaign, seed ${m.seed}: ${m.runsPerPool} review(s) per runtime × variant, ${m.workers} in flight per pool`,
    meta: [
      `seed ${code(String(m.seed))} · ${m.runsPerPool} review(s) per runtime × variant, ${m.workers} in flight per pool · ${literal(m.startedAt)} · wall time ${seconds(m.wallTimeMs)} · ${code(m.command)}`,
      `${m.machine.cpus} × ${literal(m.machine.cpuModel)}, ${m.machine.memoryGiB} GiB, load ${m.machine.loadAverage.start} → ${m.machine.loadAverage.end ?? '?'} · ${literal(versions)}`,
      // The servers as the environment named them (a masked password among them): shown, never read as markup.
      literal([m.infra.world, m.infra.postgres, ...m.infra.servers].join(' · ')),
    ],
    metaOnly: PAGE,
    css: CHAOS_CSS,
    width: TABLE_WIDTH,
    sections: [
      {
        heading: 'What struck, and what the outside saw',
        blocks: [
          { kind: 'table', table: { columns: COLUMNS, rows: result.rows.map(summaryRow) } },
          { kind: 'paragraph', style: 'note', only: TEXT, text: FAULTS_LEGEND },
          { kind: 'paragraph', style: 'note', only: TEXT, text: TERMS_LEGEND },
          ...verdict(result),
          { kind: 'paragraph', style: 'note', only: PAGE, text: JUDGED },
        ],
      },
      {
        heading: 'The campaign in time',
        only: ['html'],
        blocks: [{ kind: 'chart', html: timeline(result) }],
      },
      {
        heading: 'Runs that ended failed',
        only: PAGE,
        blocks: [
          {
            kind: 'paragraph',
            style: 'note',
            text: "Not violations: a run may end failed (hardened: in its dead letter, for a person; naive: on the first error it meets). What the world's faults and the strikes did to them:",
          },
          failed.length
            ? {
                kind: 'table',
                table: {
                  columns: [
                    { title: 'runtime / variant' },
                    { title: 'runs', numeric: true },
                    { title: 'why they ended failed' },
                  ],
                  rows: failed,
                },
              }
            : { kind: 'paragraph', text: 'None.' },
        ],
      },
      {
        heading: `Violations (${vs.length})`,
        only: TEXT,
        blocks: vs.length
          ? [
              {
                kind: 'list',
                items: vs.slice(0, maxText).map((v) => ({
                  text: `${v.runId} ${v.kind}${v.count > 1 ? ` ×${v.count}` : ''}: ${v.detail}`,
                  sub: [`replay: ${v.replay}`],
                })),
              },
              ...(vs.length > maxText
                ? [
                    {
                      kind: 'paragraph' as const,
                      text: `… and ${vs.length - maxText} more in chaos.json and chaos.html`,
                    },
                  ]
                : []),
            ]
          : [],
      },
      {
        heading: `Violations (${vs.length})`,
        only: PAGE,
        blocks: [
          vs.length
            ? { kind: 'html', html: vs.slice(0, maxCards).map(violationCard).join('\n') }
            : { kind: 'paragraph', text: 'None.' },
          ...(vs.length > maxCards
            ? [
                {
                  kind: 'paragraph' as const,
                  style: 'note' as const,
                  text: `… and ${vs.length - maxCards} more in chaos.json.`,
                },
              ]
            : []),
        ],
      },
      {
        heading: 'The schedule',
        only: PAGE,
        blocks: [
          {
            kind: 'paragraph',
            style: 'note',
            text: `Strikes (a Poisson process per kind, each hitting every pool at once): ${gaps}; pauses ${m.schedule.pauseMs[0]}–${m.schedule.pauseMs[1]} ms${m.schedule.cutMs ? `, partitions ${m.schedule.cutMs[0]}–${m.schedule.cutMs[1]} ms` : ''}. Per run and per queue worker: ${Math.round(m.schedule.armRate * 100)}% armed with a crash point, ${Math.round(m.schedule.stopShare * 100)}% of those to freeze there instead of dying (${[...new Set(m.schedule.points)].join(', ')}), ${Math.round(m.schedule.worldFaultRate * 100)}% with world faults of their own, ${Math.round(m.schedule.holdApprovalRate * 100)}% with the approval held until no worker is alive. Vendors: ${m.schedule.vendors.join(', ')}.`,
          },
          ...(m.notes.length ? [{ kind: 'list' as const, items: m.notes }] : []),
        ],
      },
    ],
  };
}
