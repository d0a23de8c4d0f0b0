import type { BaseCheckpointSaver } from '@langchain/langgraph';

/**
 * The hardened entrypoint's answer to "a task finished, its result not yet written" (measured in
 * MEASUREMENTS.md): LangGraph hands a task's result to the entrypoint as soon as the task returns
 * and writes it to the checkpoint in the background, in every durability mode (`sync` waits for
 * checkpoints between supersteps, and the whole entrypoint is one superstep). So the next task,
 * and its effects, can run before the previous result is durable, and a kill in that window runs
 * the finished task again. This holds the entrypoint until the results of the tasks that ran in
 * this process are committed: each task announces its id as it returns (`expect`), the saver's
 * putWrites for that id settles it, and `settled()` waits for all announced so far. A write that
 * fails (a lost lease's fence) fails the entrypoint with it.
 */
export class TaskCommits {
  private readonly waiting = new Map<string, { promise: Promise<void>; resolve(): void; reject(e: unknown): void }>();

  /** Wraps the saver's putWrites so every write of a task settles that task's wait. Returns the saver. */
  watch<S extends BaseCheckpointSaver>(saver: S): S {
    const putWrites = saver.putWrites.bind(saver);
    saver.putWrites = (config, writes, taskId) =>
      putWrites(config, writes, taskId).then(
        () => this.entry(taskId).resolve(),
        (err: unknown) => {
          this.entry(taskId).reject(err);
          throw err;
        },
      );
    return saver;
  }

  /** A task with this id has returned in this process; its write is on its way. */
  expect(taskId: string | undefined): void {
    if (taskId) this.entry(taskId);
  }

  /** Every announced task's result is in the checkpoint (or the first failed write's error). */
  async settled(): Promise<void> {
    const all = [...this.waiting.values()].map((w) => w.promise);
    await Promise.all(all);
    for (const [id, w] of this.waiting) if (all.includes(w.promise)) this.waiting.delete(id);
  }

  private entry(taskId: string) {
    let w = this.waiting.get(taskId);
    if (!w) {
      let resolve!: () => void;
      let reject!: (e: unknown) => void;
      const promise = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      promise.catch(() => {}); // observed by settled(); an unawaited rejection must not end the process
      w = { promise, resolve, reject };
      this.waiting.set(taskId, w);
    }
    return w;
  }
}
