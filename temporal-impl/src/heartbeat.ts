import { Context } from '@temporalio/activity';

/** Heartbeat interval; the worker flushes heartbeats to the server at most every 500ms, well inside the 2s heartbeat timeout. */
export const HEARTBEAT_EVERY_MS = 300;

/**
 * Heartbeat while `work` runs. A live worker keeps its activity alive this way; a killed one
 * stops heartbeating, and that silence is how the server learns, within the heartbeat timeout,
 * that the attempt is lost and must be retried elsewhere. Local activities have no heartbeats.
 *
 * No heartbeat at the start: the server's heartbeat timeout already runs from the moment the
 * attempt started, and the SDK sends a first heartbeat at once (only later ones are throttled), so
 * one at the start was a round trip to the server, and a write there, for every activity, most of
 * which finish in a few milliseconds (measured: see the bench's per-step figures).
 */
export async function withHeartbeats<T>(work: () => Promise<T>): Promise<T> {
  const ctx = Context.current();
  if (ctx.info.isLocal) return work();
  const timer = setInterval(() => ctx.heartbeat(), HEARTBEAT_EVERY_MS);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
