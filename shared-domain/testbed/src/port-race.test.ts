import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { InfraError } from './infra-error.ts';
import { AddressInUseError, listensOn, mentionsAddressInUse, startOnFreePort, startOnSamePort } from './port-race.ts';

const lost = (port: number) => new AddressInUseError(port, `x: port ${port} is already in use`);

describe('startOnFreePort', () => {
  it('tries a fresh port after a lost race, saying so in one line, and returns the start that bound', async () => {
    const lines: string[] = [];
    const tried: number[] = [];
    const got = await startOnFreePort(
      async (port) => {
        tried.push(port);
        if (tried.length < 3) throw lost(port);
        return `up on ${port}`;
      },
      { what: 'x: server', log: (l) => lines.push(l) },
    );
    expect(tried).toHaveLength(3);
    expect(got).toBe(`up on ${tried[2]}`);
    expect(lines).toEqual([
      `x: server: port ${tried[0]} was taken by another process before the server bound it; trying a fresh port (2 of 5)`,
      `x: server: port ${tried[1]} was taken by another process before the server bound it; trying a fresh port (3 of 5)`,
    ]);
  });

  it('throws any other failure at once, without another try', async () => {
    let tries = 0;
    const lines: string[] = [];
    await expect(
      startOnFreePort(
        async () => {
          tries++;
          throw new InfraError('x: the binary is missing');
        },
        { what: 'x', log: (l) => lines.push(l) },
      ),
    ).rejects.toThrow('x: the binary is missing');
    expect(tries).toBe(1);
    expect(lines).toEqual([]);
  });

  it('gives up after the bounded number of tries with the last lost race', async () => {
    let tries = 0;
    await expect(
      startOnFreePort(
        async (port) => {
          tries++;
          throw lost(port);
        },
        { what: 'x', log: () => undefined, attempts: 3 },
      ),
    ).rejects.toBeInstanceOf(AddressInUseError);
    expect(tries).toBe(3);
  });
});

describe('startOnSamePort', () => {
  it('waits for its own port instead of moving, and fails once the wait is over', async () => {
    const ports = new Set<number>();
    let tries = 0;
    const up = await startOnSamePort(
      4242,
      async (port) => {
        ports.add(port);
        if (++tries < 3) throw lost(port);
        return port;
      },
      { what: 'x', log: () => undefined },
    );
    expect(up).toBe(4242);
    expect([...ports]).toEqual([4242]);
    await expect(
      startOnSamePort(4242, async (port) => Promise.reject(lost(port)), {
        what: 'x',
        log: () => undefined,
        waitMs: 300,
      }),
    ).rejects.toBeInstanceOf(AddressInUseError);
  });
});

describe('mentionsAddressInUse', () => {
  it("reads Node's, PostgreSQL's and Go's way of saying it", () => {
    expect(mentionsAddressInUse('Error: listen EADDRINUSE: address already in use 127.0.0.1:5000')).toBe(true);
    expect(mentionsAddressInUse('LOG:  could not bind IPv4 address "127.0.0.1": Address already in use')).toBe(true);
    expect(mentionsAddressInUse('listen tcp 127.0.0.1:46039: bind: address already in use')).toBe(true);
    expect(mentionsAddressInUse('FATAL:  data directory "/x" has wrong ownership')).toBe(false);
  });
});

describe('listensOn', () => {
  it('tells a port this process listens on from one another process or nobody holds', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    try {
      expect(listensOn(process.pid, port)).toBe(true);
      // pid 1 does not hold our listener.
      expect(listensOn(1, port)).not.toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(listensOn(process.pid, port)).toBe(false);
  });
});
