/**
 * The review's activities without their work: each returns what the real activity returned when
 * the same review ran once before (recorded here, by activity id), and does nothing else: no step,
 * no heartbeat, no outbox. Our workflow run on them carries our arguments and results through
 * Temporal exactly as the review does: what it costs is what Temporal costs for our data. The
 * review less the floor less that is what our own code around the runtime adds.
 */
import { Context } from '@temporalio/activity';

type ActivityFn = (...args: unknown[]) => Promise<unknown>;
export type Recording = Map<string, unknown>;

/** Local activities get an id from their sequence number, the same in every run of the same shape. */
const idOf = () => {
  const info = Context.current().info;
  return `${info.workflowType}|${info.activityType}|${info.activityId}`;
};

/** The real activities, each writing down what it returned. */
export function recordingActivities<A extends object>(real: A): { activities: A; recording: Recording } {
  const recording: Recording = new Map();
  const activities = Object.fromEntries(
    Object.entries(real).map(([name, fn]) => [
      name,
      async (...args: unknown[]) => {
        const result = await (fn as ActivityFn)(...args);
        recording.set(idOf(), result);
        return result;
      },
    ]),
  );
  return { activities: activities as A, recording };
}

/** Activities with the same names that hand back the recorded results. */
export function replayingActivities<A extends object>(names: A, recording: Recording): A {
  return Object.fromEntries(
    Object.keys(names).map((name) => [
      name,
      async () => {
        const id = idOf();
        if (!recording.has(id)) throw new Error(`nothing recorded for ${id}`);
        return recording.get(id);
      },
    ]),
  ) as A;
}
