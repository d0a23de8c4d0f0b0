import { z } from 'zod';
import { PermanentError } from './errors.ts';

const slug = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'must be a lowercase slug (letters, digits, dashes; at most 40)');

export const RequirementSchema = z.object({
  id: slug,
  question: z.string().trim().min(5, 'must be a question of at least 5 characters').max(300),
  /** Words that locate the evidence on a page; defaults come from the requirement catalogue. */
  keywords: z.array(z.string().trim().min(2)).max(12).optional(),
});

export const ReviewRequestSchema = z
  .object({
    vendor: z.object({
      name: z.string().trim().min(1, 'is required').max(100),
      baseUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
    }),
    requirements: z.array(RequirementSchema).min(1, 'must list at least one requirement').max(20),
    requester: z.object({
      name: z.string().trim().min(1, 'is required'),
      email: z.email({ error: 'must be an email address' }),
    }),
    options: z
      .object({
        maxPagesPerRequirement: z.number().int().min(1).max(5).default(3),
      })
      .prefault({}),
  })
  .superRefine((req, ctx) => {
    const seen = new Set<string>();
    req.requirements.forEach((r, i) => {
      if (seen.has(r.id))
        ctx.addIssue({ code: 'custom', path: ['requirements', i, 'id'], message: `duplicate id "${r.id}"` });
      seen.add(r.id);
    });
  });

export type Requirement = z.infer<typeof RequirementSchema>;
export type ReviewRequest = z.infer<typeof ReviewRequestSchema>;
export type ReviewRequestInput = z.input<typeof ReviewRequestSchema>;

export class InvalidRequestError extends PermanentError {
  constructor(readonly problems: string[]) {
    super(`invalid review request: ${problems.join('; ')}`, 'invalid-request');
  }
}

/** Parses untrusted input; on failure lists every problem, each with its path, in one error. */
export function parseReviewRequest(input: unknown): ReviewRequest {
  const result = ReviewRequestSchema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const path = issue.path.length
      ? issue.path
          .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
          .join('')
          .replace(/^\./, '')
      : '(root)';
    return `${path}: ${issue.message}`;
  });
  throw new InvalidRequestError(problems);
}
