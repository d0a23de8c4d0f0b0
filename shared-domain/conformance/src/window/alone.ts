/**
 * The measured span of a window cell alone on the machine: while one cell's worker A is between
 * its start and its death (the span whose timer and commit the cell measures), no other cell's
 * worker runs. Worker Bs run beside one another; a measured span waits for them to end and takes
 * the machine alone, one at a time; while one waits, no new worker B starts (so a stream of Bs
 * cannot keep it waiting). Everything else a cell does (world set-up, reading the durable record,
 * judging) is not held: the servers and PostgreSQL stay shared.
 */
export interface SpanLock {
  /** Waits until no other worker runs, then holds the machine until the release is called. */
  alone(): Promise<() => void>;
  /** Waits until no measured span runs or waits, then holds a share until the release is called. */
  beside(): Promise<() => void>;
}

export function spanLock(): SpanLock {
  let holding: 'alone' | number = 0;
  const waitingAlone: (() => void)[] = [];
  const waitingBeside: (() => void)[] = [];
  const wake = (): void => {
    if (holding !== 0) {
      // Shares may join one another only while no measured span is waiting.
      if (typeof holding === 'number' && !waitingAlone.length) while (waitingBeside.length) waitingBeside.shift()!();
      return;
    }
    if (waitingAlone.length) waitingAlone.shift()!();
    else while (waitingBeside.length) waitingBeside.shift()!();
  };
  const once = (release: () => void): (() => void) => {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      release();
      wake();
    };
  };
  return {
    alone: () =>
      new Promise((resolve) => {
        waitingAlone.push(() => {
          holding = 'alone';
          resolve(
            once(() => {
              holding = 0;
            }),
          );
        });
        wake();
      }),
    beside: () =>
      new Promise((resolve) => {
        waitingBeside.push(() => {
          holding = (holding as number) + 1;
          resolve(
            once(() => {
              holding = (holding as number) - 1;
            }),
          );
        });
        wake();
      }),
  };
}
