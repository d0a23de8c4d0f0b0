import { arrive, act, isArmed, type Arrival } from './act.ts';
import { lastOfFanOut, pageEnds, pageStarts } from './fan-out.ts';
import {
  POINT_SITES,
  callKindOf,
  CRASH_POINT_NAMES,
  type CallKind,
  type CallMoment,
  type CrashPointName,
} from './points.ts';

/**
 * The call sites: what a transport (http.ts) tells the instrument about one outbound call, and
 * the points that call reaches. A transport awaits each method before it lets the call go on, so
 * a kill lands before the request leaves, while it is in flight, or after its answer is in and
 * before the app has used it.
 */
export interface CallWatch {
  kind: CallKind;
  /** Before the request leaves. */
  before(): Promise<void>;
  /** The request has been handed to the network. */
  sent(): Promise<void>;
  /** The answer is in; `readBody` reads it to its end (the app has not seen it yet). */
  answered(readBody: () => Promise<void>): Promise<void>;
  /** No answer (a refused connection, a timeout). */
  failed(): void;
}

const pointsAt = (kind: CallKind, moment: CallMoment): CrashPointName[] =>
  CRASH_POINT_NAMES.filter((p) => {
    const site = POINT_SITES[p];
    return site.kind === 'call' && site.call === kind && site.moment === moment;
  });

function settleOf(point: CrashPointName): number {
  const site = POINT_SITES[point];
  return site.kind === 'call' ? (site.settleMs ?? 0) : 0;
}

/** Counts every point at this moment of the call; the arrivals the plan acts on. */
function arrivals(kind: CallKind, moment: CallMoment): { point: CrashPointName; arrival: Arrival }[] {
  return pointsAt(kind, moment).flatMap((point) => {
    const arrival = arrive(point);
    return arrival ? [{ point, arrival }] : [];
  });
}

async function actOn(hits: { point: CrashPointName; arrival: Arrival }[], detail: string): Promise<void> {
  for (const { point, arrival } of hits) {
    const settle = settleOf(point);
    if (settle) await new Promise((r) => setTimeout(r, settle));
    await act(arrival, detail);
  }
}

/** The watch for one call, or null for a call that is none of the pipeline's. */
export function watchCall(method: string, url: URL): CallWatch | null {
  const kind = callKindOf(method, url.pathname);
  if (!kind) return null;
  const detail = `${method.toUpperCase()} ${url.pathname}`;
  let open = true;
  const close = () => {
    if (!open) return false;
    open = false;
    if (kind === 'page') pageEnds();
    return true;
  };
  return {
    kind,
    async before() {
      if (kind === 'page') pageStarts();
      await actOn(arrivals(kind, 'before'), detail);
    },
    async sent() {
      await actOn(arrivals(kind, 'in-flight'), detail);
    },
    async answered(readBody) {
      if (!close()) return;
      const after = arrivals(kind, 'after');
      if (after.length) {
        await readBody().catch(() => {});
        await actOn(after, detail);
      }
      if (kind !== 'page' || !isArmed('parallel-fetch')) return;
      const { last, size } = await lastOfFanOut();
      const hits = last ? arrivals(kind, 'last-of-fan-out') : [];
      if (hits.length === 0) return;
      await readBody().catch(() => {});
      await actOn(hits, `${detail} sibling=${size}/${size}`);
    },
    failed() {
      close();
    },
  };
}

/** True when any call point is armed: a transport reads answers to their end only then. */
export function anyCallPointArmed(): boolean {
  return CRASH_POINT_NAMES.some((p) => POINT_SITES[p].kind === 'call' && isArmed(p));
}
