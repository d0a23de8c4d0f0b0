import { UsageError } from '@vendor-review/worker-io';
import { describe, expect, it } from 'vitest';
import { START_RUN_ENV, startFromEnv } from './start-run.ts';

describe('the start call handed to a worker (START_RUN)', () => {
  it('is no call at all when the adapter made the start itself', async () => {
    await expect(startFromEnv({})).resolves.toBeUndefined();
  });

  it.each([
    ['not JSON', '{', /^START_RUN is not JSON$/],
    [
      'no task queue',
      JSON.stringify({ runId: 'r', variant: 'naive', granularity: 'fine', request: {} }),
      /^START_RUN: taskQueue /,
    ],
    [
      'an unknown variant',
      JSON.stringify({ runId: 'r', taskQueue: 'q', variant: 'careful', granularity: 'fine', request: {} }),
      /^START_RUN: variant /,
    ],
  ])('refuses %s in one line, before it connects', async (_, text, message) => {
    const refused = startFromEnv({ [START_RUN_ENV]: text });
    await expect(refused).rejects.toBeInstanceOf(UsageError);
    await expect(refused).rejects.toThrow(message);
  });
});
