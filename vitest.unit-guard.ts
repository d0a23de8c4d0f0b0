/**
 * `pnpm test:unit` runs only tests that need no database, no runtime server and no child process.
 * This holds them to it: starting a process, or connecting to a port that no server in this
 * process listens on (PostgreSQL, a Temporal server), fails the test that tried, naming what it
 * did. A test that needs either is an end-to-end one (`*.e2e.test.ts`) and runs in `pnpm test`.
 */
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

const refuse = (what: string) => () => {
  throw new Error(`a unit test ${what}: name it *.e2e.test.ts (pnpm test runs it)`);
};
for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const)
  (childProcess as Record<string, unknown>)[name] = refuse(`started a child process (${name})`);
syncBuiltinESMExports();

const ownPorts = new Set<number>();
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (this: net.Server, ...args: unknown[]) {
  this.once('listening', () => {
    const address = this.address();
    if (address && typeof address === 'object') ownPorts.add(address.port);
  });
  return listen.apply(this, args as Parameters<typeof listen>);
} as typeof listen;

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
  const first = args[0];
  const port = Number(typeof first === 'object' && first !== null ? (first as { port?: unknown }).port : first);
  if (Number.isFinite(port) && port > 0 && !ownPorts.has(port))
    refuse(`connected to port ${port}, which no server in this process listens on`)();
  return connect.apply(this, args as Parameters<typeof connect>);
} as typeof connect;
