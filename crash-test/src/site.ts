import { BatchInterceptor } from '@mswjs/interceptors';
import { ClientRequestInterceptor } from '@mswjs/interceptors/ClientRequest';
import { FetchInterceptor } from '@mswjs/interceptors/fetch';
import { answerFor, type RecordedCall } from './record.ts';
import { bodyHash, carriesIdempotencyKey, redactHeaders, usageOf } from './redact.ts';
import { callKey, writeEvent, type CrashAt, type RecordedResponse } from './events.ts';

/**
 * The crash test's side inside a worker, laid over the app from outside: every outbound HTTP call
 * (the global fetch, node:http and node:https) passes through here, and the runtime's own hook
 * tells us when a step begins. Each call is written down, answered (from the real endpoint, or from
 * the baseline's recording), and the worker kills itself where its cell says. The app's code never
 * sees any of it. Database drivers and gRPC are not HTTP and are not seen.
 */
export interface SiteOptions {
  /** record: real endpoints, answers kept; replay: answers from `recording`; live: real endpoints. */
  mode: 'record' | 'replay' | 'live';
  log: string;
  recording: readonly RecordedCall[];
  crash: CrashAt | null;
  stop: 'kill' | 'term';
  /** Calls earlier workers of the cell made, by key: occurrences go on counting from there. */
  prior: Record<string, number>;
}

/** How long a kill "while in flight" waits after the request has left, so that it reaches the endpoint. */
const IN_FLIGHT_SETTLE_MS = 100;

let site: SiteOptions | null = null;
const callCounts = new Map<string, number>();
const stepCounts = new Map<string, number>();

function die(what: string): Promise<never> {
  const opts = site!;
  writeEvent(opts.log, { e: 'crash', t: Date.now(), pid: process.pid, what, action: opts.stop });
  process.kill(process.pid, opts.stop === 'term' ? 'SIGTERM' : 'SIGKILL');
  // A SIGTERM lets the process go on (its runtime may shut down gracefully); the work in flight never returns.
  return new Promise<never>(() => {});
}

function crashesAt(at: CrashAt['at'], name: string, occurrence: number): boolean {
  const c = site?.crash;
  if (!c || c.at !== at) return false;
  return (c.at === 'step' ? c.step : c.call) === name && c.occurrence === occurrence;
}

/** A step (a node, a task, an activity) is beginning: awaited by the runtime's hook, so a kill lands before its code. */
export async function stepBegins(name: string): Promise<void> {
  if (!site) return;
  const occurrence = (stepCounts.get(name) ?? 0) + 1;
  stepCounts.set(name, occurrence);
  writeEvent(site.log, { e: 'step', t: Date.now(), pid: process.pid, name, occurrence });
  if (crashesAt('step', name, occurrence)) await die(`step ${name}#${occurrence}`);
}

function responseFrom(r: RecordedResponse): Response {
  const body = Buffer.from(r.bodyBase64, 'base64');
  const headers = new Headers(r.headers);
  // The body is given whole: a length or an encoding of the original transfer no longer applies.
  for (const h of ['content-length', 'content-encoding', 'transfer-encoding']) headers.delete(h);
  const nullBody = r.status === 204 || r.status === 304 || (r.status >= 100 && r.status < 200);
  return new Response(nullBody ? null : body, { status: r.status, headers });
}

/** Installs the interception. Until this runs (and after, for a worker without a cell), calls pass untouched. */
export function installSite(opts: SiteOptions): void {
  site = opts;
  for (const [k, n] of Object.entries(opts.prior)) callCounts.set(k, n);
  const realFetch = globalThis.fetch.bind(globalThis);
  const interceptor = new BatchInterceptor({
    name: 'crash-test',
    interceptors: [new ClientRequestInterceptor(), new FetchInterceptor()],
  });
  interceptor.apply();
  interceptor.on('request', async ({ request, controller }) => {
    const url = new URL(request.url);
    const key = callKey(request.method, url.host, url.pathname);
    const occurrence = (callCounts.get(key) ?? 0) + 1;
    callCounts.set(key, occurrence);
    const body =
      request.method === 'GET' || request.method === 'HEAD' ? new ArrayBuffer(0) : await request.clone().arrayBuffer();
    const hash = bodyHash(body);
    const headers = new Headers(request.headers);
    for (const h of [...headers.keys()]) if (/^x-interceptors-/i.test(h)) headers.delete(h);
    writeEvent(opts.log, {
      e: 'sent',
      t: Date.now(),
      pid: process.pid,
      method: request.method,
      host: url.host,
      path: url.pathname,
      occurrence,
      bodyHash: hash,
      idempotencyKey: carriesIdempotencyKey(headers),
      headers: redactHeaders(headers),
    });
    const inFlight = crashesAt('in-flight', key, occurrence);
    let answer: { response: RecordedResponse; source: 'recording' | 'live'; bodyDiffers?: boolean };
    if (opts.mode === 'replay') {
      const found = answerFor(opts.recording, { key, occurrence, bodyHash: hash });
      if (inFlight) await die(`${key}#${occurrence} in flight`);
      if (!found) {
        const message = `${key} (#${occurrence}) was never made in the baseline: refused in replay (--live sends it)`;
        writeEvent(opts.log, { e: 'refused', t: Date.now(), pid: process.pid, call: key, occurrence, message });
        controller.errorWith(new Error(`crash-test: ${message}`));
        return;
      }
      answer = { response: found.recorded.response!, source: 'recording', bodyDiffers: found.bodyDiffers };
    } else {
      const pending = realFetch(request.url, {
        method: request.method,
        headers,
        ...(body.byteLength ? { body } : {}),
        redirect: 'manual',
      });
      pending.catch(() => {});
      if (inFlight) {
        await new Promise((r) => setTimeout(r, IN_FLIGHT_SETTLE_MS));
        await die(`${key}#${occurrence} in flight`);
      }
      let res: Response;
      try {
        res = await pending;
      } catch (err) {
        const message =
          err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
        writeEvent(opts.log, { e: 'failed', t: Date.now(), pid: process.pid, call: key, occurrence, message });
        controller.errorWith(err instanceof Error ? err : new Error(message));
        return;
      }
      const bytes = Buffer.from(await res.arrayBuffer());
      const kept = new Headers(res.headers);
      answer = {
        response: { status: res.status, headers: redactHeaders(kept), bodyBase64: bytes.toString('base64') },
        source: 'live',
      };
    }
    const text = Buffer.from(answer.response.bodyBase64, 'base64').toString('utf8');
    writeEvent(opts.log, {
      e: 'answered',
      t: Date.now(),
      pid: process.pid,
      call: key,
      occurrence,
      source: answer.source,
      response: answer.response,
      usage: usageOf(text),
      ...(answer.bodyDiffers ? { bodyDiffers: true } : {}),
    });
    if (crashesAt('after-call', key, occurrence)) await die(`${key}#${occurrence} answered`);
    controller.respondWith(responseFrom(answer.response));
  });
}
