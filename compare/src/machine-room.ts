import os from 'node:os';

function cpuTimes(): { busy: number; idle: number } {
  let busy = 0;
  let idle = 0;
  for (const { times: t } of os.cpus()) {
    busy += t.user + t.nice + t.sys + t.irq;
    idle += t.idle;
  }
  return { busy, idle };
}

/**
 * A look at whether the machine has room for one more job: its CPUs sat idle more than `idleShare`
 * of the time since the last look (read from os.cpus(), so on any platform). The first look is
 * measured from the moment this was made.
 */
export function machineRoom(idleShare = 0.2): () => boolean {
  let last = cpuTimes();
  return () => {
    const now = cpuTimes();
    const busy = now.busy - last.busy;
    const idle = now.idle - last.idle;
    last = now;
    return busy + idle > 0 && idle / (busy + idle) > idleShare;
  };
}
