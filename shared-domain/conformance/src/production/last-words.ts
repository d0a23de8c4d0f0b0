import type { WorkerProcess } from '@vendor-review/testbed';

/** The line a dying worker ended on (its error), without the stack. */
export function lastWords(output: string): string {
  const lines = output.split('\n').filter((l) => l.trim() && !/^\s+at /.test(l) && !/^CRASHPOINT /.test(l));
  return ([...lines].reverse().find((l) => /error|refused|cannot|lost/i.test(l)) ?? lines.at(-1) ?? '')
    .trim()
    .slice(0, 240);
}

/** How a worker that is gone left, and what it last said: the row's account of a run it left unfinished. */
export function howItDied(w: WorkerProcess): string {
  return `worker ${w.life.name} ended (${w.life.signal ?? `code ${w.life.exitCode}`}): ${lastWords(w.output())}`;
}
