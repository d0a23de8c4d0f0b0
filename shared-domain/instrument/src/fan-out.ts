/**
 * Sibling page GETs: the pages a step fans out to, fetched together. A runtime may start its
 * siblings a few round trips apart (each reads its journal first), so against a fast site one GET
 * can be answered before the next leaves: siblings are the GETs that start before the fan-out has
 * been quiet (nothing in flight, nothing started or answered) for QUIET_MS. While
 * `parallel-fetch` is armed, each answered GET is held until either a sibling moves (it was not
 * the last) or the fan-out is quiet (it was).
 */
const QUIET_MS = 250;

interface Held {
  release(last: boolean): void;
}

const fanOut = { inFlight: 0, size: 0, lastMove: 0, held: null as Held | null };

export function pageStarts(): void {
  const now = performance.now();
  if (fanOut.inFlight === 0 && fanOut.held === null && now - fanOut.lastMove >= QUIET_MS) fanOut.size = 0;
  fanOut.size += 1;
  fanOut.inFlight += 1;
  fanOut.lastMove = now;
  fanOut.held?.release(false);
}

export function pageEnds(): void {
  fanOut.inFlight -= 1;
  fanOut.lastMove = performance.now();
}

/** For an answered page GET: whether it was the last of a fan-out of two or more, and of how many. */
export function lastOfFanOut(): Promise<{ last: boolean; size: number }> {
  fanOut.held?.release(false);
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const held: Held = {
      release(last) {
        clearTimeout(timer);
        if (fanOut.held === held) fanOut.held = null;
        const size = fanOut.size;
        if (last) fanOut.size = 0;
        resolve({ last: last && size >= 2, size });
      },
    };
    fanOut.held = held;
    const check = () => {
      const quietFor = performance.now() - fanOut.lastMove;
      if (fanOut.inFlight === 0 && quietFor >= QUIET_MS) held.release(true);
      else timer = setTimeout(check, Math.max(10, QUIET_MS - quietFor));
    };
    timer = setTimeout(check, QUIET_MS);
  });
}
