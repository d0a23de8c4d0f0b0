import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// Docker cannot run here; `docker-compose config` (Debian's package, installed by .ci/run)
// validates the file against the Compose schema without an engine and prints it resolved (relative
// bind mounts made absolute, one syntax for ports and environment). Missing tool = failed test.
const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const composeFile = path.join(repoRoot, 'docker-compose.yml');

function compose(...args: string[]) {
  return run('docker-compose', ['-f', composeFile, ...args], { timeout: 60_000 });
}

type Env = Record<string, string | number | boolean | null> | string[];
interface Service {
  image?: string;
  environment?: Env;
  volumes?: (string | { source?: string; target: string })[];
  ports?: (string | { host_ip?: string; published?: string | number; target: number })[];
  depends_on?: Record<string, { condition?: string }> | string[];
  entrypoint?: string | string[];
  command?: string | string[];
  restart?: string;
  extra_hosts?: string[] | Record<string, string>;
}

function envOf(service: Service): Record<string, string> {
  const env = service.environment ?? {};
  if (Array.isArray(env)) {
    return Object.fromEntries(env.map((entry) => [entry.split('=')[0]!, entry.slice(entry.indexOf('=') + 1)]));
  }
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === null ? '' : String(v)]));
}

function mountsOf(service: Service): { source: string; target: string }[] {
  return (service.volumes ?? []).map((v) => {
    if (typeof v !== 'string') return { source: v.source ?? '', target: v.target };
    const [source, target] = v.split(':');
    return { source: source!, target: target! };
  });
}

function portsOf(service: Service): { hostIp: string; published: number; target: number }[] {
  return (service.ports ?? []).map((p) => {
    if (typeof p !== 'string') return { hostIp: p.host_ip ?? '', published: Number(p.published), target: p.target };
    const parts = p.replace(/\/\w+$/, '').split(':');
    const [hostIp, published, target] = parts.length === 3 ? parts : ['', ...parts.slice(-2)];
    return { hostIp: hostIp!, published: Number(published), target: Number(target) };
  });
}

function conditionOn(service: Service, dependency: string): string | undefined {
  const deps = service.depends_on;
  if (!deps) return undefined;
  return Array.isArray(deps)
    ? deps.includes(dependency)
      ? 'service_started'
      : undefined
    : deps[dependency]?.condition;
}

/** The shell a one-shot job runs, with Compose's `$$` escapes undone. */
function scriptOf(service: Service): string {
  const words = [service.entrypoint ?? [], service.command ?? []].flat();
  return words.join(' ').replaceAll('$$', '$');
}

/** What a user reads about their own services and Docker: the page the README's map points to. */
function servicesPage(): string {
  const page = readFileSync(path.join(repoRoot, 'docs/your-own-services.md'), 'utf8');
  expect(page, 'docs/your-own-services.md is the "Using your own services" page').toMatch(
    /^# Using your own services$/m,
  );
  return page;
}

describe('docker-compose.yml', () => {
  let services: Record<string, Service>;
  // Awaited by every test rather than set in beforeAll, so a missing docker-compose fails each of
  // them instead of reporting them skipped.
  let resolving: Promise<Record<string, Service>> | undefined;
  beforeEach(async () => {
    resolving ??= compose('config').then(
      ({ stdout }) => (parse(stdout) as { services: Record<string, Service> }).services,
    );
    services = await resolving;
  });
  const service = (name: string) => {
    const found = services[name];
    if (!found) throw new Error(`no service ${name} in ${composeFile}`);
    return found;
  };
  const temporalServers = () =>
    Object.entries(services).filter(([, s]) => s.image?.startsWith('temporalio/server:')) as [string, Service][];

  it('is valid for docker-compose config -q', async () => {
    const result = await compose('config', '-q').catch((err: { message: string; stderr?: string }) => {
      throw new Error(`docker-compose config -q failed: ${err.stderr || err.message}`);
    });
    expect(result.stderr).toBe('');
  });

  it('has the official Temporal-on-PostgreSQL layout, health-gated, plus the app database job and Restate', () => {
    expect(Object.keys(services).sort()).toEqual(
      [
        'app-database',
        'postgresql',
        'restate',
        'temporal',
        'temporal-create-namespace',
        'temporal-schema',
        'temporal-ui',
      ].sort(),
    );
    expect(conditionOn(service('temporal-schema'), 'postgresql')).toBe('service_healthy');
    expect(conditionOn(service('app-database'), 'postgresql')).toBe('service_healthy');
    expect(conditionOn(service('temporal'), 'temporal-schema')).toBe('service_completed_successfully');
    expect(conditionOn(service('temporal-create-namespace'), 'temporal')).toBe('service_healthy');
    expect(conditionOn(service('temporal-ui'), 'temporal')).toBe('service_healthy');
    expect(envOf(service('temporal')).DB).toBe('postgres12');
  });

  // Server 1.31.0 started without config flags renders its embedded template, whose dynamic config
  // client os.Stat()s DYNAMIC_CONFIG_FILE_PATH (default .../dynamicconfig/docker.yaml, absent from
  // the image) and exits at start when it is missing. Relative paths resolve from the image's
  // WORKDIR, /etc/temporal.
  it('every temporalio/server service reads a dynamic config file that is mounted from the repository and parses', () => {
    expect(temporalServers().length).toBeGreaterThan(0);
    for (const [name, server] of temporalServers()) {
      const configured = envOf(server).DYNAMIC_CONFIG_FILE_PATH;
      expect(
        configured,
        `${name}: DYNAMIC_CONFIG_FILE_PATH unset (the server would look for a file the image lacks)`,
      ).toBeTruthy();
      const inContainer = path.posix.resolve('/etc/temporal', configured!);
      const mount = mountsOf(server).find((m) => inContainer.startsWith(`${m.target.replace(/\/$/, '')}/`));
      expect(mount, `${name}: no volume is mounted over ${inContainer}`).toBeDefined();
      const onHost = path.join(mount!.source, path.posix.relative(mount!.target, inContainer));
      expect(path.relative(repoRoot, onHost).startsWith('..'), `${name}: ${onHost} is outside the repository`).toBe(
        false,
      );
      expect(existsSync(onHost), `${name}: ${onHost} does not exist`).toBe(true);
      const parsed = parse(readFileSync(onHost, 'utf8')) as unknown;
      // Dynamic config format: key -> list of { value, constraints }.
      expect(
        parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed),
        `${onHost} is not a mapping of dynamic config keys`,
      ).toBe(true);
      for (const [key, values] of Object.entries(parsed as Record<string, unknown>)) {
        expect(Array.isArray(values), `${onHost}: ${key} is not a list`).toBe(true);
        for (const v of values as unknown[]) expect(v, `${onHost}: ${key}`).toHaveProperty('value');
      }
    }
  });

  it('the schema job creates and migrates both of the server databases before the server starts', () => {
    for (const [name, server] of temporalServers()) {
      const env = envOf(server);
      const jobName = Object.keys(services).find(
        (dep) => conditionOn(server, dep) === 'service_completed_successfully' && scriptOf(service(dep)).length > 0,
      );
      expect(jobName, `${name} waits for no completed one-shot job`).toBeDefined();
      const script = scriptOf(service(jobName!));
      // The embedded template's defaults for the two databases.
      const databases = [
        [env.DBNAME || 'temporal', 'temporal'],
        [env.VISIBILITY_DBNAME || 'temporal_visibility', 'visibility'],
      ] as const;
      for (const [db, schema] of databases) {
        const loopVar = new RegExp(`\\bfor (\\w+) in [^;\\n]*\\b${db}\\b`).exec(script)?.[1];
        const creates =
          new RegExp(`--db ${db} create\\b`).test(script) ||
          (loopVar !== undefined && new RegExp(`--db "?\\$\\{?${loopVar}\\}?"? create\\b`).test(script));
        expect(creates, `${jobName} does not create ${db}`).toBe(true);
        expect(script).toMatch(new RegExp(`--db ${db} setup-schema -v 0\\.0\\b`));
        expect(script).toContain(`--db ${db} update-schema -d /etc/temporal/schema/postgresql/v12/${schema}/versioned`);
      }
    }
  });

  it("the app database from the services page's DATABASE_URL is created by a one-shot job on the healthy PostgreSQL", () => {
    const database = /DATABASE_URL=postgres:\/\/[^\s/]+\/(\w+)/.exec(servicesPage())?.[1];
    expect(database, 'docs/your-own-services.md names a DATABASE_URL').toBeDefined();
    const creators = Object.entries(services).filter(
      ([, s]) =>
        conditionOn(s, 'postgresql') === 'service_healthy' &&
        /CREATE DATABASE/i.test(scriptOf(s)) &&
        (scriptOf(s).includes(database!) || Object.values(envOf(s)).includes(database!)),
    );
    expect(
      creators.map(([n]) => n),
      `no job creates ${database}`,
    ).toHaveLength(1);
    expect(creators[0]![1].restart ?? '').toMatch(/^(no|on-failure(:\d+)?)$/);
  });

  // The harness registers the workers' endpoints at RESTATE_ENDPOINT_HOST: for a server in a
  // container that must be a name for the host, and the header's env lines must reach its two APIs.
  it("the Restate server keeps its state under a pinned node name, reaches the host, and the header's URLs reach it", () => {
    const restate = service('restate');
    expect(
      envOf(restate).RESTATE_NODE_NAME,
      'node name unset: its state would move with each new container',
    ).toBeTruthy();
    expect(mountsOf(restate).find((m) => m.target === '/restate-data')?.source).toBe('restate-data');
    const hosts = restate.extra_hosts ?? [];
    const gateway = Array.isArray(hosts)
      ? hosts.find((h) => h.startsWith('host.docker.internal:'))?.split(':')[1]
      : hosts['host.docker.internal'];
    expect(gateway).toBe('host-gateway');
    const header = readFileSync(composeFile, 'utf8');
    expect(header).toMatch(/^#\s+export RESTATE_ENDPOINT_HOST=host\.docker\.internal\b/m);
    const published = (variable: string) =>
      Number(new RegExp(`^#\\s+export ${variable}=http://127\\.0\\.0\\.1:(\\d+)$`, 'm').exec(header)?.[1]);
    const targetOf = (port: number) => portsOf(restate).find((p) => p.published === port)?.target;
    expect(targetOf(published('RESTATE_INGRESS_URL')), 'RESTATE_INGRESS_URL is not the ingress (8080)').toBe(8080);
    expect(targetOf(published('RESTATE_ADMIN_URL')), 'RESTATE_ADMIN_URL is not the admin API (9070)').toBe(9070);
  });

  it('one-shot jobs fail on errors instead of echoing them away', () => {
    for (const [name, s] of Object.entries(services)) {
      const script = scriptOf(s);
      if (!script) continue;
      expect(script, name).toMatch(/\bset -eu\b/);
      expect(script, `${name} swallows a failure`).not.toMatch(/\|\|\s*(echo|true|:)(\s|$)/);
    }
  });

  it('pins every image to an explicit version; server and admin-tools share it', () => {
    const images = Object.values(services).map((s) => s.image ?? '');
    for (const image of images) expect(image, image).toMatch(/^[\w./-]+:\d+(\.\d+)+$/);
    expect(images.some((i) => /^postgres:16\./.test(i))).toBe(true);
    const temporalVersions = new Set(
      images.filter((i) => /^temporalio\/(server|admin-tools):/.test(i)).map((i) => i.split(':')[1]),
    );
    expect(temporalVersions.size).toBe(1);
  });

  it('publishes ports on 127.0.0.1 only, exactly the ones the services page names', () => {
    const published = Object.entries(services).flatMap(([name, s]) => portsOf(s).map((p) => ({ name, ...p })));
    for (const p of published)
      expect(p.hostIp, `${p.name}: ${p.published} is not bound to 127.0.0.1`).toBe('127.0.0.1');
    const named = [...servicesPage().matchAll(/(?:127\.0\.0\.1|localhost):(\d+)/g)].map((m) => Number(m[1]));
    const unique = (ports: number[]) => [...new Set(ports)].sort((a, b) => a - b);
    expect(unique(published.map((p) => p.published))).toEqual(unique(named));
  });
});
