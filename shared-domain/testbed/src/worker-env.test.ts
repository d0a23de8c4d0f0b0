import { describe, expect, it } from 'vitest';
import { workerEnv } from './worker-process.ts';

const spec = (env: Record<string, string | undefined>) => ({ entry: 'worker.cjs', env });

describe('a worker’s environment', () => {
  const shell = {
    PATH: '/usr/bin',
    HOME: '/home/me',
    SSL_CERT_FILE: '/etc/ssl/certs/ca-certificates.crt',
    NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt',
    OPENAI_BASE_URL: 'https://api.example/v1',
    CRASH_PLAN: 'after-model',
  };

  it('is its spec’s, plus what a process needs to run, and its name', () => {
    expect(workerEnv(spec({ WORLD_URL: 'http://127.0.0.1:1' }), 'A', shell)).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/me',
      SSL_CERT_FILE: '/etc/ssl/certs/ca-certificates.crt',
      WORLD_URL: 'http://127.0.0.1:1',
      WORKER_NAME: 'A',
    });
  });

  it('leaves out extra CA certificates, which Node parses at every start, unless the spec asks for them', () => {
    expect(workerEnv(spec({}), 'A', shell)).not.toHaveProperty('NODE_EXTRA_CA_CERTS');
    expect(workerEnv(spec({ NODE_EXTRA_CA_CERTS: '/corp/ca.pem' }), 'A', shell).NODE_EXTRA_CA_CERTS).toBe(
      '/corp/ca.pem',
    );
  });

  it('lets a spec remove what would pass through', () => {
    expect(workerEnv(spec({ HOME: undefined }), 'A', shell)).not.toHaveProperty('HOME');
  });
});
