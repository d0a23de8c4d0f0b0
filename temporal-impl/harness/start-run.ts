/**
 * The start call made in a worker's process, for the cells that kill the process making it (the
 * first checkpoint's `start-call`). Elsewhere the adapter starts the workflow in the harness's own
 * process, where no cell can kill it; here the adapter hands the start to the run's workers in
 * START_RUN, and each makes src's `startRun` before it serves the queue, as a client would.
 */
import { Client, Connection, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { loadClientConnectConfig } from '@temporalio/envconfig';
import { startCalled } from '@vendor-review/instrument';
import {
  GRANULARITIES,
  VARIANTS,
  type Granularity,
  type ReviewRequestInput,
  type Variant,
} from '@vendor-review/pipeline';
import { UsageError } from '@vendor-review/worker-io';
import { z } from 'zod';
import { approveRun, startRun } from '../src/client.ts';

export const START_RUN_ENV = 'START_RUN';

const StartRunSchema = z.object({
  runId: z.string().min(1),
  taskQueue: z.string().min(1),
  variant: z.enum(VARIANTS as [Variant, ...Variant[]]),
  granularity: z.enum(GRANULARITIES as [Granularity, ...Granularity[]]),
  // The workflow validates the request itself (its first step), as it does for the adapter's start.
  request: z.custom<ReviewRequestInput>((v) => typeof v === 'object' && v !== null, 'must be an object'),
  heartbeatMs: z.number().int().positive().optional(),
  /** A decision taken before the workflow existed (the adapter kept it): sent on after the start. */
  decision: z.object({ approved: z.boolean(), by: z.string(), note: z.string().optional() }).optional(),
});

/** What a worker needs to make the run's start call: exactly what the adapter's own start would send. */
export type StartRunInput = z.infer<typeof StartRunSchema>;

function parseStartRun(text: string): StartRunInput {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UsageError(`${START_RUN_ENV} is not JSON`, { seeHelp: false });
  }
  const parsed = StartRunSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(`${START_RUN_ENV}: ${issue.path.join('.') || '(root)'} ${issue.message}`, { seeHelp: false });
  }
  return parsed.data;
}

/**
 * Makes the start call when START_RUN asks for it, with the workflow id the run's id gives. Every
 * worker of such a run makes it (worker A first; worker B, START_AGAIN's, retries it with the same
 * id whatever the first left), and the server's default policies answer a second: a new run, or
 * `already-started` while the first runs. Prints `START <answer>`, the server's answer, as a line.
 */
export async function startFromEnv(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const text = env[START_RUN_ENV];
  if (!text) return;
  const run = parseStartRun(text);
  const config = loadClientConnectConfig();
  const address = config.connectionOptions.address || '127.0.0.1:7233';
  const connection = await Connection.connect({ ...config.connectionOptions, address });
  try {
    const client = new Client({ connection, namespace: config.namespace || 'default' });
    // The connection is made: from here on it is the start call alone that the kill may interrupt.
    await startCalled(`run=${run.runId}`);
    const answer = await startRun({
      client,
      taskQueue: run.taskQueue,
      request: run.request,
      variant: run.variant,
      runId: run.runId,
      granularity: run.granularity,
      ...(run.heartbeatMs === undefined ? {} : { timeouts: { heartbeatMs: run.heartbeatMs } }),
    }).then(
      (started) => `started runtimeRunId=${started.runtimeRunId}`,
      (err: unknown) => {
        if (err instanceof WorkflowExecutionAlreadyStartedError) return 'already-started';
        throw err;
      },
    );
    process.stdout.write(`START ${answer} run=${run.runId} pid=${process.pid}\n`);
    if (run.decision) await approveRun({ client, runId: run.runId, ...run.decision });
  } finally {
    await connection.close();
  }
}
