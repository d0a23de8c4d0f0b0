import { fit, money, seconds, TABLE_WIDTH, wrap } from '../table.ts';
import { clean } from './checker.ts';
import type { ChaosResult } from './schema.ts';

/**
 * The terminal table: one line per runtime × variant, what struck it and what the checker found,
 * then the violations (each with the command that replays it). At most 120 columns; colour only
 * when asked.
 */
const COLUMNS = [
  { title: 'runtime / variant', width: 19 },
  { title: 'runs', width: 4, right: true },
  { title: 'faults k/c/p/pg/tm/w/a', width: 22 },
  { title: 'done', width: 4, right: true },
  { title: 'dead', width: 4, right: true },
  { title: 'f.dead', width: 6, right: true },
  { title: 'stuck', width: 5, right: true },
  { title: 'dup.eff', width: 7, right: true },
  { title: 'late', width: 4, right: true },
  { title: 'other', width: 5, right: true },
  { title: 'extra $', width: 9, right: true },
  { title: 'p50', width: 7, right: true },
  { title: 'p95', width: 7, right: true },
] as const;

export const FAULTS_LEGEND =
  'faults: k kills · c crash points reached · p pauses (SIGSTOP past the lease / heartbeat) · pg PostgreSQL restarts · ' +
  'tm Temporal restarts · w requests the world faulted · a approvals sent while no worker was alive';

const TERMS_LEGEND =
  'done: completed · dead: ended failed (hardened: dead-lettered) · f.dead: of those, dead-lettered below the cap of the ' +
  'step’s own errors (the ledger shows fewer failed requests of that step: a lost machine spent the budget) · dup.eff: mails or notes the receivers stored beyond one · ' +
  'late: writes or completions accepted from a writer that had lost the run · other: a missing mail, a review unlike the ' +
  'uncrashed one, an outbox row never sent · p50/p95: start to completion of the completed runs, the wait for the approval left out';

/** "LangGraph hardened": the title the runtime's module gave the row (its name in a file older than that). */
export function poolLabel(row: { runtime: string; title?: string | undefined; variant: string }): string {
  return `${row.title ?? row.runtime} ${row.variant}`;
}

export function faultsCell(f: ChaosResult['rows'][number]['faults']): string {
  return [
    f.kill,
    f['crash-point'],
    f.pause,
    f['postgres-restart'],
    f['temporal-restart'],
    f['world-fault'],
    f['approve-while-down'],
  ].join('/');
}

export function renderChaosTable(result: ChaosResult, o: { color: boolean; maxViolations?: number }): string {
  const paint = (code: string, text: string) => (o.color ? `\x1b[${code}m${text}\x1b[0m` : text);
  const cell = (i: number, text: string) => fit(text, COLUMNS[i]!.width, 'right' in COLUMNS[i]! ? 'right' : undefined);
  const bad = (n: number, i: number) => (n > 0 ? paint('31;1', cell(i, String(n))) : cell(i, String(n)));
  const lines: string[] = [];
  const m = result.meta;
  lines.push(
    `chaos campaign, seed ${m.seed}: ${m.runsPerPool} review(s) per runtime × variant, ${m.workers} in flight per pool`,
  );
  lines.push(COLUMNS.map((c, i) => cell(i, c.title)).join(' '));
  lines.push(COLUMNS.map((c) => '─'.repeat(c.width)).join(' '));
  for (const r of result.rows) {
    const t = r.timeToCompletionMs;
    const row = [
      cell(0, poolLabel(r)),
      cell(1, String(r.runs)),
      cell(2, faultsCell(r.faults)),
      cell(3, String(r.completed)),
      cell(4, String(r.deadLettered)),
      bad(r.falseDeadLetters, 5),
      bad(r.stuck, 6),
      bad(r.duplicateEffects, 7),
      bad(r.lateWrites, 8),
      bad(r.otherViolations, 9),
      cell(10, money(r.extraSpendUsd)),
      cell(11, seconds(t?.median ?? null)),
      cell(12, seconds(t?.p95 ?? null)),
    ];
    lines.push(row.join(' ').replace(/\s+$/, ''));
  }
  lines.push(...wrap(FAULTS_LEGEND, TABLE_WIDTH, ''));
  lines.push(...wrap(TERMS_LEGEND, TABLE_WIDTH, ''));

  const hardened = result.rows.filter((r) => r.variant === 'hardened');
  if (hardened.length)
    lines.push(
      hardened.every(clean)
        ? paint('32', 'hardened: no stuck run, no duplicate effect, no late write accepted, no false dead letter')
        : paint('31;1', 'hardened: NOT clean (see the violations below)'),
    );
  const max = o.maxViolations ?? 20;
  if (result.violations.length) {
    lines.push('', `violations (${result.violations.length}):`);
    for (const v of result.violations.slice(0, max))
      lines.push(
        `  ${v.runId} ${v.kind}${v.count > 1 ? ` ×${v.count}` : ''}: ${v.detail}`,
        `      replay: ${v.replay}`,
      );
    if (result.violations.length > max)
      lines.push(`  … and ${result.violations.length - max} more in chaos.json and chaos.html`);
  }
  return lines.join('\n');
}
