/**
 * The Restate SDK calls `Promise.withResolvers`, which Node 20 lacks: without it every invocation
 * fails inside the SDK and the server retries it forever. Called by whatever serves the workflow
 * before its first invocation (the SDK only calls it while serving); a Node that has it keeps its own.
 */
export function supplyPromiseWithResolvers(): void {
  if (typeof (Promise as { withResolvers?: unknown }).withResolvers === 'function') return;
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
