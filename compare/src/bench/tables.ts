import type { Section } from '../report/document.ts';
import { bytes, ms, num, pct, spread, times, us } from './format.ts';
import type { BenchReport } from './report.ts';
import { PROJECT_TO } from './storage.ts';

/**
 * Each section of the figures as a table (a title, a note, a head, rows of text): the one place
 * they are put into words, for the terminal, bench.md and bench.html alike.
 */
interface Table {
  title: string;
  note: string;
  head: string[];
  rows: string[][];
  /** Columns that hold numbers (right-aligned). */
  numeric: number[];
}

/** A table as a section of the report document: its title, its note, then the table. */
function section(t: Table): Section {
  return {
    heading: t.title,
    blocks: [
      { kind: 'paragraph', style: 'note', text: t.note },
      {
        kind: 'table',
        table: {
          columns: t.head.map((title, i) => ({ title, numeric: t.numeric.includes(i) })),
          rows: t.rows.map((cells) => ({ cells })),
        },
      },
    ],
  };
}

function unitsTable(r: BenchReport): Table | null {
  if (!r.units) return null;
  const u = r.units;
  return {
    title: 'Units',
    note: 'measured in this run, on this machine: every overhead below is also stated as a multiple of these',
    head: ['unit', 'median', 'p95', 'samples'],
    rows: [
      [
        'one PostgreSQL commit of a small row (INSERT, autocommit)',
        us(u.pgCommitUs.median),
        us(u.pgCommitUs.p95),
        String(u.pgCommitUs.n),
      ],
      [
        'one PostgreSQL round trip (SELECT 1)',
        us(u.pgRoundTripUs.median),
        us(u.pgRoundTripUs.p95),
        String(u.pgRoundTripUs.n),
      ],
      ...u.own.flatMap((o) => [
        [o.label, us(o.us.median), us(o.us.p95), String(o.us.n)],
        ...o.parts.flatMap((part) =>
          part.us ? [[`  ${part.label}`, us(part.us.median), us(part.us.p95), String(part.us.n)]] : [],
        ),
      ]),
    ],
    numeric: [1, 2, 3],
  };
}

function perStepTable(r: BenchReport): Table | null {
  const p = r.perStep;
  if (!p) return null;
  const own = r.units?.own ?? [];
  const facts = r.meta.benched;
  const started = Object.entries(p.workerStartMs).map(
    ([runtime, t]) =>
      `; the in-process ${facts[runtime]?.title ?? runtime} worker took ${ms(t)} to start (not in the figures)`,
  );
  return {
    title: 'Per step, in-process',
    note:
      `a review of ${p.requirements} requirements (${p.steps} steps, ${p.pagesPerRequirement} pages fetched in parallel per requirement), the world answering at once; ` +
      `per step = the run's wall time ÷ ${p.steps}, median and p95 over ${p.runs} runs each (after ${p.warmup} warm-up), configurations taking turns; ` +
      `"over floor" = minus the plain runner's (bare and replayed runs do no domain work); "our state" = (replayed − bare) ÷ bare, what carrying our state adds to the runtime's own cost; ` +
      `"our code" = what our code around the runtime adds to what the runtime costs for our data: our code on the same replayed steps ÷ the replay − 1 where the runtime can run them inside our code, else (over floor − replayed) ÷ replayed` +
      started.join('') +
      (r.window
        ? `; time to durable: after the model's answer / after the tracker's note, between the last kill that still ran the step again and the first from which none did (pnpm compare --suite window, ${r.window.measuredAt.slice(0, 10)}, ${r.window.source})`
        : ''),
    head: [
      'configuration',
      'per step',
      'p95',
      'over floor',
      '= commits',
      ...own.map((o) => `= ${facts[o.runtime]?.unit.plural ?? o.key}`),
      'our state',
      'our code',
      'failed',
      ...(r.window ? ['time to durable'] : []),
    ],
    rows: p.rows.map((x) => [
      x.label,
      us(x.perStepUs?.median),
      us(x.perStepUs?.p95),
      x.kind === 'floor' ? '(floor)' : us(x.overheadUs),
      x.kind === 'floor' ? '' : times(x.overheadInCommits),
      ...own.map((o) => (x.kind === 'floor' ? '' : times(x.overheadInUnits[o.key]))),
      x.kind === 'replay' ? pct(x.stateShare) : '',
      x.ourShare !== null ? pct(x.ourShare) : '',
      x.failed ? `${x.failed}/${x.runs}` : '',
      ...(r.window ? [x.kind === 'review' ? (r.window.byRow[x.id] ?? '—') : ''] : []),
    ]),
    numeric: Array.from({ length: 6 + own.length }, (_, i) => i + 1),
  };
}

function throughputTable(r: BenchReport): Table | null {
  const t = r.throughput;
  if (!t?.length) return null;
  return {
    title: 'Throughput, worker processes',
    note:
      'reviews at once on one worker process, then two; window = first world call → last review recorded complete (worker start outside it, shown apart); ' +
      "CPU from the kernel: workers (less their start), PostgreSQL (every backend), the runtime's own server where it has one running here; " +
      "commits from pg_stat_database of a database of the cell's own (incl. the workers' own connections and what they poll while they live)",
    head: [
      'runtime',
      'reviews',
      'procs',
      'reviews/s',
      'CPU s/review',
      'workers',
      'postgres',
      'its server',
      'commits/review',
      'events/review',
      'worker start',
      'done',
    ],
    rows: t.map((c) => [
      `${c.runtime} ${c.mode}`,
      String(c.concurrency),
      String(c.processes),
      num(c.reviewsPerSecond, 2),
      num(c.cpuSecondsPerReview.total, 3),
      num(c.cpuSecondsPerReview.workers, 3),
      num(c.cpuSecondsPerReview.postgres, 3),
      num(c.cpuSecondsPerReview.server, 3),
      num(c.pgCommitsPerReview, 1),
      num(c.historyEventsPerReview, 1),
      spread(c.workerStartMs, ms),
      `${c.completed}/${c.reviews}`,
    ]),
    numeric: [1, 2, 3, 4, 5, 6, 7, 8, 9],
  };
}

function storageTable(r: BenchReport): Table | null {
  const s = r.storage;
  if (!s) return null;
  return {
    title: 'Storage per finished run',
    note: [s.how, ...Object.values(s.what)].join('; '),
    head: [
      'configuration',
      'requirements',
      'stored',
      'rows / events',
      'largest payload',
      'activity arguments',
      'per table',
    ],
    rows: s.cells.map((c) => [
      `${c.runtime} ${c.mode}`,
      `${c.requirements}${c.pagesPerRequirement ? ` × ${c.pagesPerRequirement} pages` : ''}`,
      c.ok ? bytes(c.bytes) : 'FAILED',
      c.rows !== undefined ? `${c.rows} rows` : c.events !== undefined ? `${c.events} events` : '—',
      c.largestPayloadBytes !== undefined ? bytes(c.largestPayloadBytes) : '—',
      c.activityInputBytes !== undefined ? bytes(c.activityInputBytes) : '—',
      c.tables ? c.tables.map((t) => `${t.table} ${t.rows}/${bytes(t.bytes)}`).join(', ') : '',
    ]),
    numeric: [2, 3, 4, 5],
  };
}

function projectionTable(r: BenchReport): Table | null {
  const s = r.storage;
  if (!s?.projections.length) return null;
  const never = (n: number | null) => (n === null ? 'beyond 10⁷' : `${n} requirements`);
  const limited = Object.entries(s.limits);
  const title = (runtime: string) => r.meta.benched[runtime]?.title ?? runtime;
  return {
    title: `Storage projected to ${PROJECT_TO} requirements${limited.length ? `, and ${limited.map(([n]) => `${title(n)}'s`).join(' and ')} limits` : ''}`,
    note:
      `least squares over the sizes measured (${s.sizes.join(', ')}): bytes quadratic in requirements, rows and events linear` +
      limited
        .map(
          ([n, l]) =>
            `; ${limited.length > 1 ? `${title(n)}'s ` : ''}limits: history ${bytes(l.historyBytes)}, ${l.historyEvents} events, one payload ${bytes(l.payloadBytes)}`,
        )
        .join(''),
    head: [
      'configuration',
      `stored at ${PROJECT_TO}`,
      `rows / events at ${PROJECT_TO}`,
      'largest payload',
      'history limit at',
      'event limit at',
      'payload limit at',
    ],
    rows: s.projections.map((p) => [
      `${p.runtime} ${p.mode}`,
      bytes(p.bytesAt80),
      p.rowsAt80 !== null ? `${p.rowsAt80} rows` : p.eventsAt80 !== null ? `${p.eventsAt80} events` : '—',
      bytes(p.largestPayloadAt80),
      s.limits[p.runtime] ? never(p.requirementsAtHistoryLimit) : '—',
      s.limits[p.runtime] ? never(p.requirementsAtEventLimit) : '—',
      s.limits[p.runtime] ? never(p.requirementsAtPayloadLimit) : '—',
    ]),
    numeric: [1, 2, 3],
  };
}

/** A knob as its runtime's bench names it ("lease TTL"). */
export function knobLabel(r: BenchReport, runtime: string, knob: string): string {
  return r.meta.benched[runtime]?.knobs.find((k) => k.name === knob)?.label ?? knob;
}

function recoveryTable(r: BenchReport): Table | null {
  const rec = r.recovery;
  if (!rec) return null;
  const rows = rec.points.map((p) => {
    const loaded = rec.takeovers.find((t) => t.runtime === p.runtime && t.knob === p.knob && t.value === p.value);
    return [
      `${p.runtime} hardened`,
      `${knobLabel(r, p.runtime, p.knob)} ${ms(p.value)}`,
      p.crashPoint,
      spread(p.recoveryMs, ms),
      `${p.recoveryMs?.n ?? 0}/${p.kills}`,
      loaded ? `${loaded.lost}/${loaded.runs} (${pct(loaded.rate).replace('+', '')})` : '—',
    ];
  });
  for (const t of rec.takeovers)
    if (!rec.points.some((p) => p.runtime === t.runtime && p.knob === t.knob && p.value === t.value))
      rows.push([
        `${t.runtime} hardened`,
        `${knobLabel(r, t.runtime, t.knob)} ${ms(t.value)}`,
        '—',
        '—',
        '—',
        `${t.lost}/${t.runs} (${pct(t.rate).replace('+', '')})`,
      ]);
  const loads = rec.takeovers.map((t) => t.loadAverage);
  return {
    title: 'Recovery against the timeouts',
    note:
      `crash → first progress of the replacement worker (started at once, as a supervisor would), median (min–max) over kills on a review of ${rec.crashRequirements} requirements, the model answering in ${rec.world.modelLatencyMs} ms; ` +
      `"lost by a live worker": uncrashed reviews, several in one worker, the model answering in ${rec.loadedWorld.modelLatencyMs} ms, with ${rec.burners} busy-loop processes loading the machine` +
      (loads.length ? ` (load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)})` : ''),
    head: ['runtime', 'setting', 'crash point', 'crash → progress', 'kills ok', 'lost by a live worker'],
    rows,
    numeric: [3],
  };
}

function harnessTable(r: BenchReport): Table | null {
  const h = r.harness;
  if (!h) return null;
  return {
    title: 'The harness: the default pnpm compare',
    note: `${h.command}: exit ${h.exitCode}, ${h.cells} rows; cells run four at a time, so their seconds add up to more than the wall time; bundles: ${h.bundles.join(', ') || '—'}`,
    head: ['part', 'wall', 'cell-seconds'],
    rows: [
      ['infrastructure and bundles', ms(h.infrastructureMs), ''],
      ['cells and hazards', ms(h.cellsMs), ''],
      ...h.byRuntime.map((b) => [
        `  ${b.runtime}: ${b.crashCells} crash cells, ${b.hazards} hazards`,
        '',
        `${b.crashCellSeconds.toFixed(1)} s + ${b.hazardSeconds.toFixed(1)} s`,
      ]),
      ['report and teardown', ms(h.tailMs), ''],
      ['total', ms(h.wallMs), ''],
    ],
    numeric: [1, 2],
  };
}

export function tableSections(r: BenchReport): Section[] {
  return [unitsTable, perStepTable, throughputTable, storageTable, projectionTable, recoveryTable, harnessTable]
    .map((f) => f(r))
    .filter((t): t is Table => t !== null)
    .map(section);
}
