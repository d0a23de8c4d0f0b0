/**
 * `node --import tsx src/retention-cli.ts --older-than 30d`: deletes the checkpoints of runs
 * finished longer ago than the window (DATABASE_URL). Never a live run.
 */
import { parseCli, runCli, UsageError } from '@vendor-review/worker-io';
import { parseWindow, runRetention } from './retention.ts';

const USAGE = `usage: DATABASE_URL=… retention-cli.ts --older-than <30d|12h|15m|45s|ms>
  deletes the checkpoints, writes, provenance and delivered mail of runs finished longer ago than the window`;

runCli('retention', async () => {
  const { values } = parseCli({ usage: USAGE, options: { 'older-than': { type: 'string' } } });
  const databaseUrl = process.env.DATABASE_URL;
  if (!values['older-than']) throw new UsageError('--older-than <window> is required');
  if (!databaseUrl) throw new UsageError('DATABASE_URL is not set: the PostgreSQL that holds the runs');
  let olderThanMs: number;
  try {
    olderThanMs = parseWindow(values['older-than']);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { deletedThreads, runIds } = await runRetention({ databaseUrl, olderThanMs });
  process.stdout.write(
    `deleted the checkpoints of ${deletedThreads} finished run(s) older than ${values['older-than']}${runIds.length ? `: ${runIds.join(', ')}` : ''}\n`,
  );
  return 0;
});
