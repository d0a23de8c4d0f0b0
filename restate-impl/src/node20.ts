/**
 * The Restate SDK calls `Promise.withResolvers`, which Node 20 lacks: without it every invocation
 * fails inside the SDK and the server retries it forever. Imported before the SDK by every entry
 * that serves the workflow; a Node that has it keeps its own.
 */
if (typeof (Promise as { withResolvers?: unknown }).withResolvers !== 'function') {
  Object.defineProperty(Promise, 'withResolvers', {
    configurable: true,
    writable: true,
    value<T>() {
      let resolve!: (value: T | PromiseLike<T>) => void;
      let reject!: (reason?: unknown) => void;
      const promise = new Promise<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      return { promise, resolve, reject };
    },
  });
}
