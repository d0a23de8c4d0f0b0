/**
 * node --import tsx src/retention-cli.ts --older-than 30d
 * Deletes the checkpoints of runs finished longer ago than the window (DATABASE_URL). Never a live run.
 */
import { parseArgs } from 'node:util';
import { parseWindow, runRetention } from './retention.ts';

const { values } = parseArgs({ options: { 'older-than': { type: 'string' } }, strict: true });
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl || !values['older-than']) {
  process.stderr.write('usage: DATABASE_URL=… retention-cli.ts --older-than <30d|12h|15m|ms>\n');
  process.exit(2);
}
const olderThanMs = parseWindow(values['older-than']);
const { deletedThreads, runIds } = await runRetention({ databaseUrl, olderThanMs });
process.stdout.write(
  `deleted the checkpoints of ${deletedThreads} finished run(s) older than ${values['older-than']}${runIds.length ? `: ${runIds.join(', ')}` : ''}\n`,
);
