import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';

export class RequestFileError extends Error {
  override readonly name = 'RequestFileError';
}

/**
 * Reads a request file as untrusted JSON. Relative paths are taken from where the user typed the
 * command (pnpm runs package scripts inside the package, and says where it was called from in INIT_CWD).
 */
export function readRequestFile(path: string, cwd = process.env.INIT_CWD ?? process.cwd()): unknown {
  const full = isAbsolute(path) ? path : resolve(cwd, path);
  // From the repo root, `fixtures/x.json` means the package's fixtures: accept it there too.
  const fallback = isAbsolute(path) ? undefined : resolve(process.cwd(), path);
  let text: string;
  try {
    text = readFileSync(full, 'utf8');
  } catch (first) {
    if (fallback && fallback !== full && (first as NodeJS.ErrnoException).code === 'ENOENT') {
      try {
        return parseJson(readFileSync(fallback, 'utf8'), fallback);
      } catch (err) {
        if (err instanceof RequestFileError) throw err;
      }
    }
    const code = (first as NodeJS.ErrnoException).code;
    throw new RequestFileError(
      code === 'ENOENT'
        ? `request file not found: ${full}`
        : `cannot read request file ${full}: ${code ?? String(first)}`,
    );
  }
  return parseJson(text, full);
}

function parseJson(text: string, full: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new RequestFileError(`request file ${full} is not valid JSON: ${(err as Error).message}`);
  }
}
