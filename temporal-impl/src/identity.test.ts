import { describe, expect, it } from 'vitest';
import { runIdFromWorkflowId, workflowIdFor } from './identity.ts';

describe('run identity', () => {
  it('derives the workflow id from the business run id, and back', () => {
    expect(workflowIdFor('rev-acme-1234abcd')).toBe('vendor-review/rev-acme-1234abcd');
    expect(runIdFromWorkflowId(workflowIdFor('rev-acme-1234abcd'))).toBe('rev-acme-1234abcd');
    expect(runIdFromWorkflowId('something-else')).toBeNull();
  });
});
