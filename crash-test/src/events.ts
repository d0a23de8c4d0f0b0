import { appendFileSync, readFileSync, existsSync } from 'node:fs';

/**
 * What a worker writes down as it goes, one JSON line at a time, synchronously: a SIGKILL may land
 * on the next line and what was written must be on disk. The harness reads these files after the
 * worker is gone; nothing else passes between them.
 */
export type CrashAt =
  | { at: 'after-call' | 'in-flight'; call: string; occurrence: number }
  | { at: 'step'; step: string; occurrence: number };

/** A recorded answer. Headers that carry secrets are never kept (see redact.ts). */
export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  bodyBase64: string;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  model: string | null;
}

/** A request as it left: what is known of a call before its answer. */
export interface SentCall {
  method: string;
  host: string;
  path: string;
  /** 1-based, counted over the whole cell (every worker of it) by method, host and path. */
  occurrence: number;
  bodyHash: string;
  idempotencyKey: boolean;
  /** Secrets redacted. */
  headers: Record<string, string>;
}

export type WorkerEvent =
  | { e: 'ready'; t: number; pid: number }
  | ({ e: 'sent'; t: number; pid: number } & SentCall)
  | {
      e: 'answered';
      t: number;
      pid: number;
      call: string;
      occurrence: number;
      source: 'recording' | 'live';
      response: RecordedResponse;
      usage: Usage | null;
      /** Replay: the body differs from the baseline call that answered it. */
      bodyDiffers?: boolean;
    }
  | { e: 'failed'; t: number; pid: number; call: string; occurrence: number; message: string }
  | { e: 'refused'; t: number; pid: number; call: string; occurrence: number; message: string }
  | { e: 'step'; t: number; pid: number; name: string; occurrence: number }
  | { e: 'crash'; t: number; pid: number; what: string; action: 'kill' | 'term' }
  | { e: 'done'; t: number; pid: number; state: unknown; status: string }
  | { e: 'error'; t: number; pid: number; message: string };

/** `POST api.example.test/v1/notes`: a call by method, host and path (no query: it may carry secrets). */
export function callKey(method: string, host: string, path: string): string {
  return `${method.toUpperCase()} ${host}${path}`;
}

export function writeEvent(file: string, event: WorkerEvent): void {
  appendFileSync(file, `${JSON.stringify(event)}\n`);
}

/** A worker's events; a line cut short by a kill is dropped. */
export function readEvents(file: string): WorkerEvent[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line) => {
      if (!line.trim()) return [];
      try {
        return [JSON.parse(line) as WorkerEvent];
      } catch {
        return [];
      }
    });
}
