/** The worker's exit codes, one per thing a supervisor or a person must do differently. */
export const EXIT = {
  /** The run reached a final status (completed, rejected, or failed into the dead letter) and it is recorded. */
  done: 0,
  /** Something unexpected: a bug or an unreachable dependency. Retrying the worker may help. */
  unexpected: 1,
  /** Bad command line, or the run does not exist. */
  usage: 2,
  /** The run was started but nothing durable is left to resume from (MemorySaver, exit durability, deleted). */
  nothingToResume: 3,
  /** Another live worker holds the run's lease (hardened): this one did not touch it. */
  leaseHeld: 4,
  /** This worker lost its lease while running (paused past expiry, taken over): its writes were refused. */
  fencedOut: 5,
  /** The latest checkpoint was written by a state schema or serializer this code does not read. */
  checkpointUnreadable: 6,
} as const;
