import type { Ports, StepContext } from '@vendor-review/pipeline';

/**
 * A worker's own account of its work, for a person watching it (`pnpm lab worker` turns it on with
 * TRACE_STEPS=1): each step as it starts and ends, each call to the outside world as it leaves and
 * comes back, a model call with its tokens. The last line a killed worker printed says where it
 * died. Off by default: the workers `pnpm compare` and `pnpm bench` measure print nothing per step.
 * What a call cost is the world's to say (its ledger bills it); a worker knows only the tokens.
 */
export const TRACE_ENV = 'TRACE_STEPS';

export function traceWanted(env: Record<string, string | undefined>): boolean {
  return env[TRACE_ENV] === '1';
}

/** Where a line goes, tagged with the run it is about. */
export type TraceWrite = (runId: string, text: string) => void;

export interface StepTrace {
  /** Runs a step (a node, an activity) with a line as it starts and one as it ends or fails. */
  step<T>(runId: string, what: string, attempt: number, body: () => Promise<T>): Promise<T>;
  /** The same ports, with a line for every call they make. */
  ports(ports: Ports): Ports;
}

const secs = (since: number) => `${((Date.now() - since) / 1000).toFixed(2)} s`;
const firstLine = (err: unknown) => (err instanceof Error ? `${err.name}: ${err.message}` : String(err)).split('\n')[0];
const shortUrl = (url: string) => {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
};

export function stepTrace(write: TraceWrite): StepTrace {
  /** A call's lines: on its way back, or its failure (rethrown as it was). */
  const call = async <T>(runId: string, body: () => Promise<T>, ok: (r: T) => string, what: string): Promise<T> => {
    try {
      const r = await body();
      write(runId, `  ${ok(r)}`);
      return r;
    } catch (err) {
      write(runId, `  ${what} failed: ${firstLine(err)}`);
      throw err;
    }
  };
  return {
    async step(runId, what, attempt, body) {
      const started = Date.now();
      write(runId, `${what} started${attempt > 1 ? ` (attempt ${attempt})` : ''}`);
      try {
        const result = await body();
        write(runId, `${what} finished in ${secs(started)}`);
        return result;
      } catch (err) {
        write(runId, `${what} failed after ${secs(started)}: ${firstLine(err)}`);
        throw err;
      }
    },
    ports: (p) => ({
      web: {
        get: (url, meta) =>
          call(
            meta.runId,
            () => p.web.get(url, meta),
            (page) => `${meta.step} GET ${shortUrl(url)}: ${page.status}`,
            `${meta.step} GET ${shortUrl(url)}`,
          ),
      },
      model: {
        complete: (req, meta) => {
          const started = Date.now();
          write(meta.runId, `  ${meta.step} model call sent, waiting for the answer…`);
          return call(
            meta.runId,
            () => p.model.complete(req, meta),
            (r) =>
              `${meta.step} model call answered in ${secs(started)}: ${r.usage.promptTokens} prompt + ${r.usage.completionTokens} completion tokens (${r.model})`,
            `${meta.step} model call`,
          );
        },
      },
      tracker: {
        note: (note, meta) =>
          call(
            meta.runId,
            () => p.tracker.note(note, meta),
            (r) => `${meta.step} tracker note ${r.duplicate ? 'recognised by its key: nothing new stored' : 'stored'}`,
            `${meta.step} tracker note`,
          ),
      },
      mailer: {
        send: (mail, meta) =>
          call(
            meta.runId,
            () => p.mailer.send(mail, meta),
            (r) => `${meta.step} mail to ${mail.to} ${r.duplicate ? 'recognised by its key: not sent again' : 'sent'}`,
            `${meta.step} mail`,
          ),
      },
      approver: {
        notify: (request, meta) =>
          call(
            meta.runId,
            () => p.approver.notify(request, meta),
            (r) =>
              `${meta.step} approver ${r.duplicate ? 'recognised the key: not told again' : 'told the review waits'}`,
            `${meta.step} approver`,
          ),
      },
    }),
  };
}

function isStepContext(x: unknown): x is StepContext {
  const c = x as Partial<StepContext> | null;
  return typeof c === 'object' && c !== null && typeof c.step === 'string' && typeof c.run?.runId === 'string';
}

/** "FETCH soc2 /vendors/acme/security": the step, the requirement it works on, the page it fetches. */
function describe(ctx: StepContext, args: unknown[]): string {
  const requirement = (args[0] as { current?: { requirementId?: string } } | null)?.current?.requirementId;
  const target = args.find((a): a is { url: string } => typeof (a as { url?: unknown } | null)?.url === 'string');
  return [ctx.step, requirement, target && shortUrl(target.url)].filter(Boolean).join(' ');
}

/**
 * The shared steps with a trace around each one a runtime calls with a StepContext: how a runtime
 * that injects the steps (LangGraph's nodes) shows them start and end without touching its graph.
 */
export function traceSteps<S extends object>(steps: S, trace: StepTrace): S {
  const traced: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(steps)) {
    traced[name] =
      typeof fn !== 'function'
        ? fn
        : (...args: unknown[]) => {
            const ctx = args.find(isStepContext);
            if (!ctx) return (fn as (...a: unknown[]) => unknown)(...args);
            return trace.step(ctx.run.runId, describe(ctx, args), ctx.attempt, async () =>
              (fn as (...a: unknown[]) => unknown)(...args),
            );
          };
  }
  return traced as S;
}
