import type { TemporalConnectionOptions } from './config.ts';

/**
 * Asks a Temporal frontend what a harness needs to know before it starts runs, through the
 * official client (so TLS, API keys and gRPC metadata work as for any Temporal client): is the
 * WorkflowService SERVING (the gRPC health check `temporal operator cluster health` makes), does
 * the namespace exist, which server version is it. Each call is bounded by `timeoutMs`.
 */
export interface TemporalProbe {
  healthy(): Promise<void>;
  /** Rejects with a TemporalProbeError whose `notFound` is true when the namespace does not exist. */
  describeNamespace(namespace: string): Promise<void>;
  /** The server's own version (GetSystemInfo), or null when it does not say. */
  serverVersion(): Promise<string | null>;
  close(): Promise<void>;
}

export class TemporalProbeError extends Error {
  override readonly name = 'TemporalProbeError';
  constructor(
    message: string,
    readonly notFound = false,
  ) {
    super(message);
  }
}

const WORKFLOW_SERVICE = 'temporal.api.workflowservice.v1.WorkflowService';
const SERVING = 1;
const NOT_FOUND = 5;

function reason(err: unknown): string {
  const e = err as { details?: string; message?: string; cause?: unknown };
  return e.details || e.message || String(err);
}

/** A lazy connection: nothing is sent until the first call (a server still starting is asked again). */
export async function openTemporalProbe(
  connection: TemporalConnectionOptions,
  timeoutMs: number,
): Promise<TemporalProbe> {
  // Loaded here, not at import: the infra entry is read by every worker, which must not pay for gRPC.
  const { Connection } = await import('@temporalio/client');
  const conn = Connection.lazy({ ...connection, connectTimeout: timeoutMs } as Parameters<typeof Connection.lazy>[0]);
  const within = <T>(fn: () => Promise<T>) => conn.withDeadline(Date.now() + timeoutMs, fn);
  return {
    async healthy() {
      const answer = await within(() => conn.healthService.check({ service: WORKFLOW_SERVICE })).catch(
        (err: unknown) => {
          throw new TemporalProbeError(`no gRPC health answer: ${reason(err)}`);
        },
      );
      if (answer.status !== SERVING) throw new TemporalProbeError(`health status ${answer.status}, not SERVING`);
    },
    async describeNamespace(namespace) {
      try {
        await within(() => conn.workflowService.describeNamespace({ namespace }));
      } catch (err) {
        const notFound = (err as { code?: number }).code === NOT_FOUND;
        throw new TemporalProbeError(reason(err), notFound);
      }
    },
    async serverVersion() {
      const info = await within(() => conn.workflowService.getSystemInfo({})).catch(() => null);
      return info?.serverVersion || null;
    },
    close: () => conn.close(),
  };
}
