import { shortHash } from './deliveries.ts';
import type { LedgerKind } from './ledger.ts';
import { REQUIREMENT_LABEL } from '@vendor-review/pipeline';
import { parseChatRequest, promptHash } from './routes-model.ts';

function field(body: string, name: string): string | undefined {
  try {
    const value = (JSON.parse(body) as Record<string, unknown>)[name];
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Names the logical operation independently of attempt and key, so repeats show up as the same opKey twice. */
export function opKeyOf(kind: LedgerKind, method: string, path: string, body: string, step: string | null): string {
  switch (kind) {
    case 'web':
      return `${method} ${path}`;
    case 'model': {
      const chat = parseChatRequest(body);
      return `model:${step ?? '-'}:${chat ? promptHash(chat.messages) : shortHash(body)}`;
    }
    case 'tracker':
      return `note:${field(body, 'requirementId') ?? shortHash(field(body, 'text') ?? body)}`;
    case 'mail':
      return `mail:${shortHash(`${field(body, 'subject') ?? ''}\u0000${field(body, 'to') ?? ''}`)}`;
    case 'approver':
      return `ask:${field(body, 'runId') ?? shortHash(body)}`;
  }
}

/**
 * What the operation is about, in words that do not depend on the run: the page's path, the
 * requirement a prompt or a note is for, "review mail". Two runs doing the same work give the same
 * subjects, where their opKeys may differ (a mail's subject line names its run).
 */
export function operationSubject(
  kind: LedgerKind,
  method: string,
  path: string,
  body: string,
  step: string | null,
): string {
  switch (kind) {
    case 'web':
      return `${method} ${path}`;
    case 'model': {
      const user =
        [...(parseChatRequest(body)?.messages ?? [])].reverse().find((m) => m.role === 'user')?.content ?? '';
      const requirement = user
        .split('\n')
        .find((l) => l.startsWith(REQUIREMENT_LABEL))
        ?.slice(REQUIREMENT_LABEL.length);
      return `${(step ?? 'model').toLowerCase()}${requirement ? ` ${requirement}` : ''}`;
    }
    case 'tracker':
      return `note ${field(body, 'requirementId') ?? ''}`.trim();
    case 'mail':
      return 'review mail';
    case 'approver':
      return 'approval request';
  }
}
