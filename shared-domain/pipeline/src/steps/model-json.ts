import { z } from 'zod';
import { TransientError } from '../errors.ts';
import type { Finding } from '../state.ts';

const FindingsSchema = z.object({
  findings: z.array(
    z.object({
      url: z.string(),
      found: z.boolean(),
      answer: z.enum(['yes', 'no', 'unclear']).catch('unclear'),
      quote: z.string().default(''),
    }),
  ),
});

/**
 * Real models wrap JSON in prose or code fences; take the outermost object. A reply we cannot
 * read is transient: the same prompt may well be answered properly on the next attempt.
 */
export function parseFindings(text: string): Finding[] {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  let raw: unknown;
  try {
    raw = start === -1 ? undefined : JSON.parse(text.slice(start, end + 1));
  } catch {
    raw = undefined;
  }
  const parsed = FindingsSchema.safeParse(raw);
  if (!parsed.success)
    throw new TransientError(`model reply is not the findings JSON asked for: ${text.slice(0, 120)}`, 'model-bad-json');
  return parsed.data.findings;
}
