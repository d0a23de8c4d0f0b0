import http from 'node:http';
import https from 'node:https';
import { syncBuiltinESMExports } from 'node:module';
import { Readable } from 'node:stream';
import { watchCall } from './calls.ts';

/**
 * The process's HTTP clients, watched from outside the code that uses them: the global `fetch`
 * (undici; the OpenAI SDK and the app's ports call it) and `node:http(s)`'s request and get. A
 * call the pipeline does not make (a runtime's own traffic, anything not matched in points.ts)
 * passes untouched. Database drivers and gRPC are not HTTP and are not seen here.
 */
let installed = false;

export function installHttpWatch(): void {
  if (installed) return;
  installed = true;
  watchFetch();
  for (const mod of [http, https]) watchNodeHttp(mod);
  // `import { request } from 'node:http'` elsewhere sees the watched function too.
  syncBuiltinESMExports();
}

function requestOf(input: string | URL | Request, init?: RequestInit): { method: string; url: URL } | null {
  try {
    if (input instanceof Request) return { method: init?.method ?? input.method, url: new URL(input.url) };
    return { method: init?.method ?? 'GET', url: new URL(String(input)) };
  } catch {
    return null;
  }
}

function watchFetch(): void {
  const original = globalThis.fetch;
  if (typeof original !== 'function') return;
  globalThis.fetch = async function watchedFetch(input: string | URL | Request, init?: RequestInit) {
    const req = requestOf(input, init);
    const watch = req ? watchCall(req.method, req.url) : null;
    if (!watch) return original(input, init);
    await watch.before();
    const pending = original(input, init);
    // Nobody may await it if the process dies at the next line; keep its rejection from surfacing first.
    pending.catch(() => {});
    await watch.sent();
    let res: Response;
    try {
      res = await pending;
    } catch (err) {
      watch.failed();
      throw err;
    }
    // The app reads the original; the copy is read to its end first when a point waits for the whole answer.
    await watch.answered(async () => {
      await res.clone().arrayBuffer();
    });
    return res;
  } as typeof fetch;
}

type RequestFn = typeof http.request;

function targetOf(args: unknown[], defaultProtocol: string): { method: string; url: URL } | null {
  try {
    const [first, second] = args;
    const opts = (typeof first === 'string' || first instanceof URL ? second : first) as
      http.RequestOptions | undefined;
    const base =
      typeof first === 'string' || first instanceof URL
        ? new URL(String(first))
        : new URL(
            `${opts?.protocol ?? defaultProtocol}//${opts?.hostname ?? opts?.host ?? 'localhost'}${opts?.port ? `:${opts.port}` : ''}`,
          );
    const path = typeof opts?.path === 'string' ? opts.path : null;
    const url = path && !(typeof first === 'string' || first instanceof URL) ? new URL(path, base) : base;
    return { method: opts && typeof opts === 'object' && opts.method ? opts.method : 'GET', url };
  } catch {
    return null;
  }
}

/**
 * node:http(s): before the request is made, when its body has been sent, and once its answer has
 * been read to the end, before the app's 'response' listener sees it: the answer is replayed to
 * the app from what was read.
 */
function watchNodeHttp(mod: typeof http | typeof https): void {
  const defaultProtocol = mod === https ? 'https:' : 'http:';
  const original: RequestFn = mod.request;
  const watched = function watchedRequest(this: unknown, ...args: unknown[]) {
    const target = targetOf(args, defaultProtocol);
    const watch = target ? watchCall(target.method, target.url) : null;
    const req = (original as (...a: unknown[]) => http.ClientRequest).apply(this, args);
    if (!watch) return req;
    // A request is made synchronously; what must come before it leaves holds its first write.
    const ready = watch.before();
    const write = req.write.bind(req);
    const end = req.end.bind(req);
    let held: Promise<void> | null = ready;
    req.write = ((...a: Parameters<typeof write>) => {
      if (!held) return write(...a);
      void held.then(() => write(...a));
      return true;
    }) as typeof req.write;
    req.end = ((...a: Parameters<typeof end>) => {
      if (!held) return end(...a);
      void held.then(() => {
        held = null;
        end(...a);
      });
      return req;
    }) as typeof req.end;
    req.once('finish', () => void watch.sent());
    req.once('error', () => watch.failed());
    const emit = req.emit.bind(req);
    req.emit = ((event: string, ...rest: unknown[]) => {
      if (event !== 'response') return emit(event, ...rest);
      const res = rest[0] as http.IncomingMessage;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.once('error', () => watch.failed());
      res.once('end', () => {
        void watch
          .answered(async () => {})
          .then(() => {
            const replay = Object.assign(Readable.from(chunks.length ? [Buffer.concat(chunks)] : []), {
              statusCode: res.statusCode,
              statusMessage: res.statusMessage,
              headers: res.headers,
              rawHeaders: res.rawHeaders,
              trailers: res.trailers,
              httpVersion: res.httpVersion,
              socket: res.socket,
              complete: true,
            });
            emit('response', replay);
          });
      });
      return true;
    }) as typeof req.emit;
    return req;
  } as RequestFn;
  mod.request = watched;
  mod.get = function watchedGet(this: unknown, ...args: unknown[]) {
    const req = (watched as (...a: unknown[]) => http.ClientRequest).apply(this, args);
    req.end();
    return req;
  } as typeof http.get;
}
