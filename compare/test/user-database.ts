import { freshDatabase } from '@vendor-review/testbed';
import { cleanInvocations } from '../src/database-runs.ts';

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
