/**
 * `node code-cached.mjs <bundle.cjs> [args…]`: runs a worker bundle as Node would run it, but
 * compiled from a V8 code cache kept beside it, as a deployed service starts from its compile cache
 * (Node 22's module.enableCompileCache; Node 20 has it only for scripts compiled through vm).
 * Parsing and compiling a bundle of several MB is a large share of a worker's start, and a crash
 * matrix starts hundreds of workers. The first workers to run a new bundle write its cache; a cache
 * V8 rejects (another Node, other flags) is only slower, and is written again.
 */
import fs from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { setTimeout } from 'node:timers';
import vm from 'node:vm';

const file = path.resolve(process.argv[2]);
const cacheFile = `${file}.v8cache`;
let cachedData;
try {
  cachedData = fs.readFileSync(cacheFile);
} catch {
  cachedData = undefined; // none yet
}
// No dynamic import(): Node 20 loses a script's import() callback when it is compiled from a cache,
// so workerBundle refuses a bundle that keeps one.
const script = new vm.Script(Module.wrap(fs.readFileSync(file, 'utf8')), { filename: file, cachedData });

let written = cachedData !== undefined && !script.cachedDataRejected;
function writeCache() {
  if (written) return;
  written = true;
  try {
    const tmp = `${cacheFile}.${process.pid}`;
    fs.writeFileSync(tmp, script.createCachedData());
    fs.renameSync(tmp, cacheFile); // in one step: another worker never reads half a cache
  } catch {
    // a cache is only a speed-up
  }
}
// Once its start is behind it (the functions it ran are then compiled, and go into the cache), or
// at its exit if it ends sooner.
setTimeout(writeCache, 2000).unref();
process.on('exit', writeCache);

const bundle = new Module(file, null);
bundle.filename = file;
bundle.paths = Module._nodeModulePaths(path.dirname(file));
process.argv.splice(1, 1); // the bundle sees its own path and arguments, as if run directly
script.runInThisContext()(bundle.exports, Module.createRequire(file), bundle, file, path.dirname(file));
