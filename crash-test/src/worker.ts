import { readFileSync } from 'node:fs';
import { writeEvent } from './events.ts';
import { JOB_ENV, type WorkerJob } from './job.ts';
import type { RecordedCall } from './record.ts';
import { installSite } from './site.ts';

/**
 * One worker of a cell, started by the harness as its own process so that it can be killed: the
 * interception is laid first, then the runtime's driver loads the user's app and runs it.
 */
const job = JSON.parse(process.env[JOB_ENV] ?? 'null') as WorkerJob | null;
if (!job) {
  process.stderr.write(`crash-test worker: ${JOB_ENV} is not set (the harness starts this process)\n`);
  process.exit(2);
}
const { site } = job;
installSite({
  ...site,
  recording: site.recording ? (JSON.parse(readFileSync(site.recording, 'utf8')) as RecordedCall[]) : [],
});

try {
  if (job.driver === 'langgraph') await (await import('./drivers/langgraph-worker.ts')).runLangGraph(job);
  else await (await import('./drivers/temporal-worker.ts')).runTemporalWorker(job);
} catch (err) {
  const message = err instanceof Error ? err.message.split('\n')[0]! : String(err);
  writeEvent(site.log, { e: 'error', t: Date.now(), pid: process.pid, message });
  process.stderr.write(`crash-test worker: ${message}\n`);
  process.exit(1);
}
