/**
 * Records each row's wall time from a default run's results.json (`pnpm --dir compare
 * expected-times report/results.json`) into src/expected-times.json: the order a first run starts
 * its rows in, longest first. Only the order depends on it.
 */
import { writeFileSync } from 'node:fs';
import { RECORDED_TIMES, rowTimes } from '../expected-times.ts';

const from = process.argv[2];
if (!from) {
  process.stderr.write('usage: pnpm --dir compare expected-times <results.json of a default run>\n');
  process.exit(2);
}
const times = rowTimes(from);
const ids = Object.keys(times).sort();
if (ids.length === 0) {
  process.stderr.write(`expected-times: no rows with a wall time in ${from}\n`);
  process.exit(2);
}
writeFileSync(RECORDED_TIMES, `${JSON.stringify(Object.fromEntries(ids.map((id) => [id, times[id]])), null, 2)}\n`);
process.stdout.write(`wrote ${ids.length} rows to ${RECORDED_TIMES}\n`);
