import os from 'node:os';
import path from 'node:path';
import { makeDirectory, writeFileAtomic } from '@vendor-review/worker-io';

/**
 * The end of a long run (compare, chaos, bench): its report files, each written whole or not at
 * all. The folder was checked before the run, yet it can still go away, fill up, or a renderer can
 * throw; minutes of measurements must not go with it. When a file cannot be written, the results
 * are saved where they can be (the caller's folder, else the temp folder) and the answer is one
 * line saying what failed and where the results are; the caller prints its table anyway.
 */
export interface ReportFile {
  path: string;
  /** Rendered only when written: a renderer that throws is a failure of that file, reported like any other. */
  render: () => string;
}

export interface Rescue {
  /** The results' file name (`results.json`). */
  name: string;
  /** The results, unchecked: what is saved when the report is not. */
  text: () => string;
  /** The caller's folder, tried first. */
  cwd: string;
}

const reasonOf = (err: unknown) => (err instanceof Error ? err.message : String(err)).replace(/\s*\n\s*/g, ' ');

/** Null when every file is written; else the line to print (the run then exits non-zero). */
export function writeReport(files: ReportFile[], rescue: Rescue): string | null {
  let failed: string;
  try {
    for (const f of files) {
      makeDirectory(path.dirname(f.path));
      writeFileAtomic(f.path, f.render());
    }
    return null;
  } catch (err) {
    failed = `the report could not be written (${reasonOf(err)})`;
  }
  const places = [
    path.resolve(rescue.cwd, rescue.name),
    path.join(os.tmpdir(), `${path.parse(rescue.name).name}-${Date.now()}-${process.pid}.json`),
  ];
  const tried: string[] = [];
  for (const place of places) {
    try {
      writeFileAtomic(place, rescue.text());
      return `${failed}; the results are saved in ${place}`;
    } catch (err) {
      tried.push(`${place}: ${reasonOf(err)}`);
    }
  }
  return `${failed}; the results could not be saved either (${tried.join('; ')})`;
}
