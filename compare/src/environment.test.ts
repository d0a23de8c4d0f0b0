import { describe, expect, it } from 'vitest';
import { environmentReport } from './environment.ts';

describe('the report’s environment', () => {
  it('names the extra CA certificates as kept from the workers', () => {
    const report = environmentReport(
      { NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt', PATH: '/usr/bin' },
      undefined,
    );
    expect(report.notPassedToWorkers).toEqual(['NODE_EXTRA_CA_CERTS']);
  });
});
