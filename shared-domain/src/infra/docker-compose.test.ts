import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// Docker cannot run here; `docker-compose config` (Debian's package, installed by .ci/run)
// validates the file against the Compose schema without an engine. Missing tool = failed test.
const run = promisify(execFile);
const composeFile = fileURLToPath(new URL('../../../docker-compose.yml', import.meta.url));

function compose(...args: string[]) {
  return run('docker-compose', ['-f', composeFile, ...args], { timeout: 60_000 });
}

describe('docker-compose.yml', () => {
  it('is valid for docker-compose config -q', async () => {
    const result = await compose('config', '-q').catch((err: { message: string; stderr?: string }) => {
      throw new Error(`docker-compose config -q failed: ${err.stderr || err.message}`);
    });
    expect(result.stderr).toBe('');
  });

  it('has the official Temporal-on-PostgreSQL layout, health-gated', async () => {
    const { stdout: resolved } = await compose('config');
    const services = resolved.slice(resolved.indexOf('\nservices:\n')).split(/\n(?=\S)/)[1] ?? '';
    expect([...services.matchAll(/^ {2}(\S+):$/gm)].map((m) => m[1]).sort()).toEqual(
      ['postgresql', 'temporal', 'temporal-create-namespace', 'temporal-schema', 'temporal-ui'].sort(),
    );
    expect(resolved).toMatch(/temporal-schema:\n\s+condition: service_completed_successfully/);
    expect(resolved).toMatch(/postgresql:\n\s+condition: service_healthy/);
    expect(resolved).toMatch(/temporal:\n\s+condition: service_healthy/);
    expect(resolved).toContain('DB: postgres12');
  });

  it('pins every image to an explicit version', () => {
    const images = [...readFileSync(composeFile, 'utf8').matchAll(/^\s*image:\s*(\S+)\s*$/gm)].map((m) => m[1]!);
    expect(images.length).toBe(5);
    for (const image of images) {
      expect(image, image).toMatch(/^[\w./-]+:\d+(\.\d+)+$/);
    }
    expect(images.some((i) => /^postgres:16\./.test(i))).toBe(true);
  });
});
