import { existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The project's one way to make a folder and to write a file a reader may open at any moment.
 *
 * Never `mkdir(…, { recursive: true })`: Node's native recursive mkdir loops forever, at full CPU
 * and without returning to the event loop (so no signal handler runs either), when a parent
 * exists but its child is "not found" however often it is created: any path under /proc, a
 * dangling symlink. `pnpm compare --report-dir /proc/forbidden/x` spun there for good (issue 27).
 * Walking the missing levels one by one turns the same path into one ENOENT.
 */
export function makeDirectory(dir: string): void {
  const missing: string[] = [];
  let at = path.resolve(dir);
  while (!existsSync(at)) {
    missing.unshift(at);
    const parent = path.dirname(at);
    if (parent === at) break;
    at = parent;
  }
  if (existsSync(at) && !statSync(at).isDirectory())
    throw Object.assign(new Error(`ENOTDIR: not a directory, ${at}`), { code: 'ENOTDIR' });
  for (const level of missing) {
    try {
      mkdirSync(level);
    } catch (err) {
      // Someone else made it in between: as good as ours.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(level).isDirectory()) throw err;
    }
  }
}

/** Written under a temporary name beside it, then renamed: a reader sees the old file or the whole new one. */
export function writeFileAtomic(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/**
 * Makes `dir` if it is missing and proves a file can be written in it (a probe, created and
 * removed). Throws the filesystem's own error when not.
 */
export function ensureWritableDirectory(dir: string): void {
  makeDirectory(dir);
  const probe = path.join(dir, `.write-check-${process.pid}`);
  writeFileSync(probe, '', { flag: 'wx' });
  rmSync(probe, { force: true });
}
