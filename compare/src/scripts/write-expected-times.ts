/**
 * Records each row's wall time from a default run's results.json (`pnpm --dir compare
 * expected-times report/results.json`) into src/expected-times.json: the order a first run starts
 * its rows in, longest first. Only the order depends on it. Rows the run did not have keep their
 * recorded time: the default leaves out the hazards that --full and --hazard run.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { RECORDED_TIMES, rowTimes, type RowTimes } from '../expected-times.ts';

const from = process.argv[2];
if (!from) {
  process.stderr.write('usage: pnpm --dir compare expected-times <results.json of a default run>\n');
  process.exit(2);
}
const times = rowTimes(from);
const measured = Object.keys(times).length;
if (measured === 0) {
  process.stderr.write(`expected-times: no rows with a wall time in ${from}\n`);
  process.exit(2);
}
const kept = existsSync(RECORDED_TIMES) ? (JSON.parse(readFileSync(RECORDED_TIMES, 'utf8')) as RowTimes) : {};
const all: RowTimes = { ...kept, ...times };
const ids = Object.keys(all).sort();
writeFileSync(RECORDED_TIMES, `${JSON.stringify(Object.fromEntries(ids.map((id) => [id, all[id]])), null, 2)}\n`);
process.stdout.write(
  `wrote ${measured} rows measured in ${from} and kept ${ids.length - measured} to ${RECORDED_TIMES}\n`,
);
