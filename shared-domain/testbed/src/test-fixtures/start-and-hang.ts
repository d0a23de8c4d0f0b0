// Starts an embedded PostgreSQL, reports where it is, and never stops it: process-cleanup.e2e.test.ts
// then ends this process abruptly and checks nothing survives.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startPostgres } from '../index.ts';

const lines: string[] = [];
await startPostgres({ env: {}, log: (l) => lines.push(l) });
const dataDir = /\(data in (.+)\)$/.exec(lines[0] ?? '')?.[1] ?? '';
const postgresPid = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
process.stdout.write(`${JSON.stringify({ dataDir, postgresPid })}\n`);
setInterval(() => undefined, 60_000);
