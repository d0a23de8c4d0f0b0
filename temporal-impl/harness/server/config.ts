import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { InfraError, reasonOf } from '@vendor-review/testbed';

/**
 * Which Temporal to use, read the way Temporal's own clients and CLI read it (`@temporalio/envconfig`):
 * a profile of the client config file (TEMPORAL_CONFIG_FILE, else ~/.config/temporalio/temporal.toml;
 * TEMPORAL_PROFILE, else `default`), overridden by TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE,
 * TEMPORAL_API_KEY, TEMPORAL_TLS* and TEMPORAL_GRPC_META_*. So Temporal Cloud or a company cluster
 * works with the settings its users already have.
 */

/** Every variable envconfig reads (TEMPORAL_GRPC_META_<header> besides): what "outside Temporal settings" means. */
export const TEMPORAL_CONFIG_VARIABLES = [
  'TEMPORAL_ADDRESS',
  'TEMPORAL_NAMESPACE',
  'TEMPORAL_API_KEY',
  'TEMPORAL_PROFILE',
  'TEMPORAL_CONFIG_FILE',
  'TEMPORAL_TLS',
  'TEMPORAL_TLS_CLIENT_CERT_PATH',
  'TEMPORAL_TLS_CLIENT_CERT_DATA',
  'TEMPORAL_TLS_CLIENT_KEY_PATH',
  'TEMPORAL_TLS_CLIENT_KEY_DATA',
  'TEMPORAL_TLS_SERVER_CA_CERT_PATH',
  'TEMPORAL_TLS_SERVER_CA_CERT_DATA',
  'TEMPORAL_TLS_SERVER_NAME',
  'TEMPORAL_TLS_DISABLE_HOST_VERIFICATION',
  'TEMPORAL_CODEC_ENDPOINT',
  'TEMPORAL_CODEC_AUTH',
] as const;
const GRPC_META_PREFIX = 'TEMPORAL_GRPC_META_';

export function isTemporalConfigVariable(name: string): boolean {
  return (TEMPORAL_CONFIG_VARIABLES as readonly string[]).includes(name) || name.startsWith(GRPC_META_PREFIX);
}

/** What `Connection.connect` and `NativeConnection.connect` both take. */
export interface TemporalConnectionOptions {
  address: string;
  apiKey?: string;
  tls?: boolean | object;
  metadata?: Record<string, string>;
}

export interface TemporalSettings {
  connection: TemporalConnectionOptions;
  namespace: string | undefined;
  /** Where the address came from, in words: "TEMPORAL_ADDRESS", "profile cloud of /home/u/.config/temporalio/temporal.toml". */
  source: string;
  tls: boolean;
  apiKey: boolean;
  /** The config file a worker must read to connect the same way (TLS files may be named there), if one exists. */
  configFile: string | null;
}

/** envconfig's default file location, resolved from `env` (a worker gets no XDG_CONFIG_HOME, so it is passed on by name). */
export function defaultConfigFile(env: NodeJS.ProcessEnv): string | null {
  if (env.TEMPORAL_CONFIG_FILE) return env.TEMPORAL_CONFIG_FILE;
  const home = env.HOME;
  if (os.platform() === 'darwin')
    return home ? path.join(home, 'Library', 'Application Support', 'temporalio', 'temporal.toml') : null;
  const xdg = env.XDG_CONFIG_HOME;
  const dir = xdg && path.isAbsolute(xdg) ? xdg : home ? path.join(home, '.config') : null;
  return dir ? path.join(dir, 'temporalio', 'temporal.toml') : null;
}

const defined = (env: NodeJS.ProcessEnv): Record<string, string> =>
  Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));

/**
 * The user's Temporal, or null when neither the environment nor a config profile names an address
 * (then the harness starts a dev server of its own). A profile or file that cannot be read is one
 * line saying which and how to fix it.
 */
export async function temporalSettings(env: NodeJS.ProcessEnv): Promise<TemporalSettings | null> {
  const { loadClientConfigProfile, toClientOptions } = await import('@temporalio/envconfig');
  const file = defaultConfigFile(env);
  const profileName = env.TEMPORAL_PROFILE?.trim() || 'default';
  let options: ReturnType<typeof toClientOptions>;
  try {
    // overrideEnvVars: the environment given here, not this process's (a test, or a harness choosing for a child).
    options = toClientOptions(loadClientConfigProfile({ overrideEnvVars: defined(env) }));
  } catch (err) {
    throw new InfraError(
      `temporal: cannot read the Temporal client config (profile ${profileName}${file ? ` of ${file}` : ''}: ${reasonOf(err)}): ` +
        'fix TEMPORAL_PROFILE / TEMPORAL_CONFIG_FILE or the file, or set TEMPORAL_ADDRESS',
    );
  }
  const address = options.connectionOptions.address?.trim();
  if (!address) return null;
  const fromEnv = Boolean(env.TEMPORAL_ADDRESS?.trim());
  const { tls, apiKey, metadata } = options.connectionOptions as TemporalConnectionOptions;
  return {
    connection: {
      address,
      ...(apiKey ? { apiKey } : {}),
      ...(tls !== undefined ? { tls } : {}),
      ...(metadata && Object.keys(metadata).length ? { metadata } : {}),
    },
    namespace: options.namespace?.trim() || undefined,
    source: fromEnv ? 'TEMPORAL_ADDRESS' : `profile ${profileName} of ${file ?? 'the Temporal config file'}`,
    tls: Boolean(tls),
    apiKey: Boolean(apiKey),
    configFile: file && existsSync(file) ? file : null,
  };
}

/**
 * The environment a worker needs to connect exactly as the harness did, for its own envconfig to
 * read: the resolved address and namespace, the user's other Temporal variables (API key, TLS,
 * gRPC metadata, profile), and the config file by name. Without a user's Temporal (a dev server of
 * ours) the file is one with an empty profile: a profile in the user's home must not redirect a worker.
 */
export const NO_PROFILE_FILE = fileURLToPath(new URL('./no-profile.toml', import.meta.url));

export function temporalWorkerEnv(
  target: { address: string; namespace: string },
  settings: TemporalSettings | null,
  env: NodeJS.ProcessEnv,
): Record<string, string> {
  const out: Record<string, string> = {};
  if (settings) {
    for (const [k, v] of Object.entries(env)) if (v !== undefined && isTemporalConfigVariable(k)) out[k] = v;
  }
  out.TEMPORAL_ADDRESS = target.address;
  out.TEMPORAL_NAMESPACE = target.namespace;
  out.TEMPORAL_CONFIG_FILE = settings?.configFile ?? NO_PROFILE_FILE;
  return out;
}
