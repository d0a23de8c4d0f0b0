import { shortHash } from './deliveries.ts';
import type { LedgerKind } from './ledger.ts';
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
  }
}
