import { describe, expect, it } from 'vitest';
import { judgeResumeAfterDeploy } from './deploy.ts';

describe('a resume after a deploy, judged from its end and the ledger', () => {
  const stopped = { completed: false, reviewRight: null, lastRelease: true };

  it('a refusal with no call to the world after the resume is a clear refusal', () => {
    expect(judgeResumeAfterDeploy({ ...stopped, refused: true, callsAfter: 0 })).toBe('refused-clearly');
  });

  it('a refusal after calls to the world went on first: the verdict claims no clean refusal the ledger denies', () => {
    expect(judgeResumeAfterDeploy({ ...stopped, refused: true, callsAfter: 2 })).toBe('broke');
    expect(judgeResumeAfterDeploy({ ...stopped, refused: false, callsAfter: 0 })).toBe('broke');
  });

  it('a completed run is resumed (last release) or read blindly (a format), unless its review is wrong', () => {
    const done = { completed: true, refused: false, callsAfter: 1 };
    expect(judgeResumeAfterDeploy({ ...done, reviewRight: true, lastRelease: true })).toBe('resumed');
    expect(judgeResumeAfterDeploy({ ...done, reviewRight: true, lastRelease: false })).toBe('read-blindly');
    expect(judgeResumeAfterDeploy({ ...done, reviewRight: false, lastRelease: true })).toBe('wrong-review');
  });
});
