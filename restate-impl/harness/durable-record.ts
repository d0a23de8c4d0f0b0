import type { DurableMark, DurableRecord } from '@vendor-review/conformance';
import type { JournalRow } from './journal.ts';

/** Our step names are the logical operation ("FETCH:soc2:1", "DELIVER:outbox"); the step is the head. */
export function stepOf(name: string): string | null {
  const head = name.split(/[:#]/)[0];
  return head && /^[A-Z_]+$/.test(head) ? head : null;
}

interface Lite {
  Command?: { Run?: { completion_id: number; name?: string } };
  Notification?: { ty?: { Completion?: string }; id?: { CompletionId?: number }; result?: string };
}

function lite(row: JournalRow): Lite {
  try {
    return JSON.parse(row.entry_lite_json ?? '{}') as Lite;
  } catch {
    return {};
  }
}

/** The `ctx.run` a journal row belongs to: its command's, or its result notification's. */
export function completionIdOf(row: JournalRow): number | undefined {
  const l = lite(row);
  return (
    l.Command?.Run?.completion_id ??
    (l.Notification?.ty?.Completion === 'Run' ? l.Notification.id?.CompletionId : undefined)
  );
}

/**
 * Restate's journal for one invocation as the harness reads it. A `ctx.run` leaves two entries:
 * its command when the step starts, and the notification with its result once the server has
 * recorded it. A step is durable only from the second: one mark per recorded result, at the time
 * the server appended it, named by the step. A step that was running when its endpoint died has
 * its command and no result, and runs again. Everything else (the input, state writes, the
 * awakeable, the output) only moves the machinery: bookkeeping. The journal does not say which
 * endpoint process wrote an entry, so marks name no writer.
 */
export function toDurableRecord(rows: readonly JournalRow[]): DurableRecord {
  const runNames = new Map<number, string>();
  for (const r of rows) {
    const run = lite(r).Command?.Run;
    if (run) runNames.set(run.completion_id, r.name || run.name || '');
  }
  const marks = rows.map((r): DurableMark => {
    const n = lite(r).Notification;
    const completionId = n?.ty?.Completion === 'Run' ? n.id?.CompletionId : undefined;
    const name = completionId !== undefined ? runNames.get(completionId) : undefined;
    const step = name ? stepOf(name) : null;
    const at = r.appended_at ? Date.parse(r.appended_at) : null;
    if (name === undefined)
      return {
        id: String(r.index),
        kind: 'event',
        at,
        step: null,
        short: `#${r.index} ${r.entry_type.replace(/^(Command|Notification): /, '')}`,
        long: `journal entry ${r.index}: ${r.entry_type}${r.name ? ` ${r.name}` : ''}`,
        order: r.index,
        bookkeeping: true,
      };
    const failed = n?.result !== undefined && n.result !== 'Success';
    return {
      id: String(r.index),
      kind: 'event',
      at,
      step,
      short: `#${r.index} ${step ?? name}${failed ? ' failed' : ''}`,
      long: `journal entry ${r.index}: the result of ${name}${failed ? ` (recorded ${n?.result})` : ''}`,
      order: r.index,
      ...(step ? {} : { bookkeeping: true }),
    };
  });
  return { runtime: 'restate', kind: 'history', marks };
}
