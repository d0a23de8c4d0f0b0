import { describe, expect, it } from 'vitest';
import type { RunView } from '@vendor-review/pipeline';
import type { LedgerEntry } from '@vendor-review/world';
import { mailOwed, mailShown } from './delivery.ts';

const view = (status: RunView['status'], approved?: boolean) =>
  ({ status, state: approved === undefined ? null : { approval: { approved } } }) as unknown as RunView;
const mail = (outcome: string) => ({ kind: 'mail', outcome }) as unknown as LedgerEntry;

describe('when an ended run is done with its mail', () => {
  it('only a completed run not rejected owes one', () => {
    expect(mailOwed(view('completed', true))).toBe(true);
    expect(mailOwed(view('completed'))).toBe(true);
    expect(mailOwed(view('completed', false))).toBe(false);
    expect(mailOwed(view('failed', true))).toBe(false);
  });

  it('a mail is out once the mailer accepted it or recognised its key, not when the request failed', () => {
    expect(mailShown([mail('ok')])).toBe(true);
    expect(mailShown([mail('fault'), mail('deduplicated')])).toBe(true);
    expect(mailShown([mail('fault'), mail('aborted'), mail('error')])).toBe(false);
    expect(mailShown([{ kind: 'model', outcome: 'ok' } as unknown as LedgerEntry])).toBe(false);
  });
});
