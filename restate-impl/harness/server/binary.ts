import { createRequire } from 'node:module';
import os from 'node:os';
import { InfraError, reasonOf } from '@vendor-review/testbed';

const require = createRequire(import.meta.url);

/**
 * The restate-server binary that `@restatedev/restate-server` (a dependency of this package) had
 * npm install beside it: a platform package, `@restatedev/restate-server-<os>-<arch>`, one of its
 * optional dependencies. Found the way its own launcher (lib/index.js) finds it, from that package,
 * so no store path is written down here. The binary is spawned directly rather than through that
 * Node launcher, so that the pid is the server's own: CPU accounting sees it and a SIGKILL reaches it.
 */
export function restateServerBinary(): string {
  const platformPackage = `@restatedev/restate-server-${os.platform()}-${os.arch()}`;
  try {
    const fromLauncher = createRequire(require.resolve('@restatedev/restate-server/package.json'));
    return fromLauncher.resolve(`${platformPackage}/bin/restate-server`);
  } catch (err) {
    throw new InfraError(
      `restate: no restate-server binary for ${os.platform()}-${os.arch()} (${reasonOf(err).split('\n')[0]}): ` +
        `run pnpm install (${platformPackage} is an optional dependency of @restatedev/restate-server, ` +
        'published for linux and darwin on x64 and arm64), or set RESTATE_ADMIN_URL and RESTATE_INGRESS_URL to a running server',
    );
  }
}
