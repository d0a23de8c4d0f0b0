import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiError, kindOf, type Answer, type RouteRequest } from './answer.ts';
import { handleControl, isControlRoute, type WorldConfig, type WorldParts } from './control.ts';
import { DeliveryStore } from './deliveries.ts';
import { FaultBook, servesRequest, type FaultRule } from './faults.ts';
import { Ledger, type LedgerEntry, type LedgerKind } from './ledger.ts';
import { ModelVariation } from './model-variation.ts';
import { opKeyOf, operationSubject } from './op-key.ts';
import { forwardModelCall, type ModelUpstream } from './model-upstream.ts';
import { costUsd } from './pricing.ts';
import { approverRoute, mailRoute, trackerRoute } from './routes-deliveries.ts';
import { modelRoute } from './routes-model.ts';
import { webRoute } from './routes-web.ts';

export interface WorldOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  modelLatencyMs?: number;
  pageLatencyMs?: number;
  /** The model answers a repeated request differently (WorldConfig.modelVaries); default off. */
  modelVaries?: boolean;
  /** Forward model calls to a real OpenAI-compatible provider (still counted and priced here). */
  modelUpstream?: ModelUpstream;
}

const MAX_BODY = 2 * 1024 * 1024;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) req.destroy(new Error('body too large'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function header(req: IncomingMessage, name: string): string | null {
  const v = req.headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  return s && s.length ? s : null;
}

/** Resolves true if the client went away before `ms` passed, false once the wait is over. */
function waitUnlessGone(ms: number, gone: Promise<void>): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void gone.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

function faultAnswer(fault: FaultRule, kind: LedgerKind): Answer {
  const status = Number(fault.kind);
  const headers = status === 429 ? { 'Retry-After': '1' } : undefined;
  const answer = apiError(status, `injected fault ${fault.kind} (${fault.id}) on ${kind}`, `injected_${fault.kind}`);
  return { ...answer, ...(headers ? { headers } : {}) };
}

export function createWorldServer(parts: WorldParts, modelUpstream?: ModelUpstream): Server {
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = Date.now();
    const url = new URL(req.url ?? '/', 'http://world.local');
    const method = (req.method ?? 'GET').toUpperCase();
    const body = await readBody(req);
    if (isControlRoute(method, url.pathname))
      return handleControl(parts, method, url.pathname, url.searchParams, body, res);

    let clientGone = false;
    const gone = new Promise<void>((resolve) =>
      res.once('close', () => {
        if (!res.writableEnded) clientGone = true;
        resolve();
      }),
    );
    const attempt = Number(header(req, 'x-attempt'));
    const route: RouteRequest = {
      method,
      path: url.pathname,
      query: url.searchParams,
      origin: `http://${req.headers.host ?? 'localhost'}`,
      body,
      runId: header(req, 'x-run-id'),
      step: header(req, 'x-step'),
      idempotencyKey: header(req, 'idempotency-key'),
    };
    const kind = kindOf(route.path);
    const base = {
      at: started,
      runId: route.runId,
      step: route.step,
      attempt: Number.isFinite(attempt) && attempt > 0 ? attempt : null,
      worker: header(req, 'x-worker'),
      idempotencyKey: route.idempotencyKey,
      kind,
      method,
      path: route.path,
      opKey: opKeyOf(kind, method, route.path, body, route.step),
      subject: operationSubject(kind, method, route.path, body, route.step),
    };
    const record = (e: Pick<LedgerEntry, 'status' | 'outcome'> & Partial<LedgerEntry>): void => {
      parts.ledger.record({
        ...base,
        promptTokens: 0,
        completionTokens: 0,
        costUsd: 0,
        durationMs: Date.now() - started,
        ...e,
      });
    };

    const fault = parts.faults.take({ path: route.path, method, runId: route.runId, step: route.step });
    if (fault?.kind === 'drop') {
      record({ status: 0, outcome: 'fault', fault: 'drop' });
      req.socket.destroy();
      return;
    }
    if (fault && !servesRequest(fault.kind)) {
      const answer = faultAnswer(fault, kind);
      res.writeHead(answer.status, { 'Content-Type': answer.contentType, ...answer.headers }).end(answer.body);
      record({ status: answer.status, outcome: 'fault', fault: fault.kind });
      return;
    }

    const answer =
      kind === 'model'
        ? modelUpstream
          ? await forwardModelCall(route, modelUpstream)
          : modelRoute(
              route,
              parts.config.modelLatencyMs,
              parts.config.modelVaries || fault?.kind === 'vary' ? parts.variation.next(route.runId, body) : 0,
            )
        : kind === 'tracker'
          ? trackerRoute(route, parts.notes)
          : kind === 'mail'
            ? mailRoute(route, parts.outbox)
            : kind === 'approver'
              ? approverRoute(route, parts.inbox)
              : webRoute(route, parts.config.pageLatencyMs);
    const delay = answer.latencyMs + (fault?.kind === 'slow' ? fault.delayMs : 0);
    // A fault that still serves the request is named on its entry.
    const slow = fault && servesRequest(fault.kind) ? { fault: fault.kind } : {};
    const model = answer.model ? { model: answer.model } : {};
    if (clientGone || (delay > 0 && (await waitUnlessGone(delay, gone)))) {
      // The provider has already read (and bills) the prompt; nobody will ever read the completion
      // (a real upstream has produced and billed it too).
      const promptTokens = answer.promptTokens ?? 0;
      const completionTokens = answer.billedInFull ? (answer.completionTokens ?? 0) : 0;
      record({
        status: 0,
        outcome: 'aborted',
        ...slow,
        ...model,
        promptTokens,
        completionTokens,
        costUsd: answer.model ? costUsd(answer.model, promptTokens, completionTokens) : 0,
      });
      return;
    }
    res.writeHead(answer.status, { 'Content-Type': answer.contentType, ...answer.headers }).end(answer.body);
    const promptTokens = answer.promptTokens ?? 0;
    const completionTokens = answer.completionTokens ?? 0;
    record({
      status: answer.status,
      outcome: answer.outcome,
      ...slow,
      ...model,
      promptTokens,
      completionTokens,
      costUsd: answer.model ? costUsd(answer.model, promptTokens, completionTokens) : 0,
    });
  };

  return createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent)
        res.writeHead(500, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: String(err) }));
    });
  });
}

export interface World {
  url: string;
  port: number;
  stop(): Promise<void>;
  ledger(filter?: { runId?: string; kind?: LedgerKind }): LedgerEntry[];
  resetLedger(): void;
  addFault(rule: Parameters<FaultBook['add']>[0]): FaultRule;
  /** Replace every fault rule with these. */
  setFaults(rules: Parameters<FaultBook['add']>[0][]): FaultRule[];
  clearFaults(): void;
  faults(): FaultRule[];
  outbox(runId?: string): ReturnType<DeliveryStore['list']>;
  notes(runId?: string): ReturnType<DeliveryStore['list']>;
  /** The approver's inbox: every approval request it received (a keyed repeat is not stored again). */
  inbox(runId?: string): ReturnType<DeliveryStore['list']>;
  configure(config: Partial<WorldConfig>): WorldConfig;
  /** Ledger, faults, outbox, notes and inbox emptied (config kept). */
  reset(): void;
}

export async function startWorld(opts: WorldOptions = {}): Promise<World> {
  const parts: WorldParts = {
    ledger: new Ledger(),
    faults: new FaultBook(),
    notes: new DeliveryStore('note'),
    outbox: new DeliveryStore('msg'),
    inbox: new DeliveryStore('ask'),
    variation: new ModelVariation(),
    config: {
      modelLatencyMs: opts.modelLatencyMs ?? 150,
      pageLatencyMs: opts.pageLatencyMs ?? 0,
      modelVaries: opts.modelVaries ?? false,
    },
  };
  const server = createWorldServer(parts, opts.modelUpstream);
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    ledger: (filter) => parts.ledger.entries(filter),
    resetLedger: () => parts.ledger.reset(),
    addFault: (rule) => parts.faults.add(rule),
    setFaults: (rules) => {
      parts.faults.clear();
      return rules.map((r) => parts.faults.add(r));
    },
    clearFaults: () => parts.faults.clear(),
    faults: () => parts.faults.list(),
    outbox: (runId) => parts.outbox.list(runId),
    notes: (runId) => parts.notes.list(runId),
    inbox: (runId) => parts.inbox.list(runId),
    configure: (config) => Object.assign(parts.config, config),
    reset: () => {
      parts.ledger.reset();
      parts.faults.clear();
      parts.notes.reset();
      parts.outbox.reset();
      parts.inbox.reset();
      parts.variation.reset();
    },
  };
}
