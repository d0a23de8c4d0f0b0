import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freshDatabase } from '@vendor-review/testbed';
import { cleanInvocations } from '../src/database-runs.ts';
import type { CompareOptions } from '../src/options.ts';
import { runCompare, type RunCompareResult } from '../src/run-compare.ts';

/**
 * For an end-to-end test under a DATABASE_URL: a fresh database plays the user's, so the databases
 * the invocation creates beside it are recorded there and removed afterwards, without touching the
 * runs a developer keeps in their own. Without DATABASE_URL the embedded PostgreSQL goes anyway.
 */
export async function userDatabase(env: NodeJS.ProcessEnv = process.env) {
  const server = env.DATABASE_URL?.trim();
  if (!server) return { env, cleanup: async () => undefined };
  const db = await freshDatabase(server, 'compare_e2e_user');
  return {
    env: { ...env, DATABASE_URL: db.url },
    cleanup: async () => {
      await cleanInvocations(db.url);
      await db.drop();
    },
  };
}

/**
 * `pnpm compare` in this process as the e2e tests run it: their options over a quiet default (no JSON, the infrastructure torn down, 4 lanes, a 120 s bound, a report folder of
 * its own), its lines and its table on stderr. With `asUser` (the default), under a fresh user
 * database (userDatabase); otherwise in the environment given.
 */
export async function compareForTest(
  options: Partial<CompareOptions> & Pick<CompareOptions, 'suites'>,
  o: { env?: NodeJS.ProcessEnv; asUser?: boolean } = {},
): Promise<RunCompareResult> {
  const user = o.asUser === false ? null : await userDatabase(o.env);
  try {
    const run = await runCompare(
      {
        json: false,
        reportDir: mkdtempSync(path.join(os.tmpdir(), `compare-${options.suites.join('-')}-`)),
        keepInfra: false,
        concurrency: 4,
        boundSeconds: 120,
        ...options,
      },
      { log: (l) => process.stderr.write(`${l}\n`), color: false, env: user?.env ?? o.env ?? process.env },
    );
    process.stderr.write(`${run.table}\n`);
    return run;
  } finally {
    await user?.cleanup();
  }
}
