import { maskDatabaseUrl } from '@vendor-review/testbed';
import { describe, expect, it } from 'vitest';
import { ACME_SERVER } from '../../test/fake-runtime.ts';
import { fixtureResults } from '../../test/fixture-results.ts';
import { environmentReport } from '../environment.ts';
import { toHtml } from './render-html.ts';
import { toMarkdown } from './render-markdown.ts';
import { toText } from './render-text.ts';
import { resultsDocument } from './results-document.ts';
import type { Results } from './results.ts';

/**
 * Text a run takes from its environment (a database URL with its password masked, a namespace, a
 * server's version) is shown as it is in every medium: a `*` in it opens no bold, a `<` no tag.
 */
describe('outside text in the report’s opening lines', () => {
  const url = 'postgres://ad_min:p*a_s<s@127.0.0.1:5432/post_gres';
  const masked = maskDatabaseUrl(url);
  const namespace = 'team_a*b<i>x</i>`';
  const env = { DATABASE_URL: url, ACME_NAMESPACE: namespace };
  const base = fixtureResults();
  const results: Results = {
    ...base,
    meta: {
      ...base.meta,
      infrastructure: {
        ...base.meta.infrastructure,
        postgres: `DATABASE_URL ${masked}, this run's tables in database vr_run_1`,
        servers: [
          { title: 'Journal server', description: 'JOURNAL_ADDRESS 127.0.0.1:7000 (namespace *team_a*)', ui: null },
        ],
        // A second masked password on the same line: between the two, Markdown would read bold.
        restartHazards: `PostgreSQL ${maskDatabaseUrl('postgres://postgres:s3_*<b>@127.0.0.1:5433/postgres')}`,
      },
      environment: environmentReport(env, undefined, [ACME_SERVER]),
      versions: { ...base.meta.versions, servers: { 'Journal server': '1.32.0_<rc>' } },
    },
  };

  it('keeps the password masked, whatever it holds', () => {
    expect(masked).toBe('postgres://ad_min:***@127.0.0.1:5432/post_gres');
    expect(results.meta.environment.inForce).toContain(`DATABASE_URL=${masked}`);
  });

  it('report.html shows it as text: no bold, no tag, nothing lost', () => {
    const html = toHtml(resultsDocument(results));
    const meta = /<p class="meta">([\s\S]*?)<\/p>/.exec(html)![1]!;
    expect(meta).not.toMatch(/<b>|<i>|<\/i>/);
    expect(meta).toContain('PostgreSQL DATABASE_URL postgres://ad_min:***@127.0.0.1:5432/post_gres, this run');
    expect(meta).toContain('(namespace *team_a*)');
    expect(meta).toContain('on servers of their own: PostgreSQL postgres://postgres:***@127.0.0.1:5433/postgres.');
    expect(meta).toContain('<code>ACME_NAMESPACE=team_a*b&lt;i&gt;x&lt;/i&gt;`</code>');
    expect(meta).toContain('Journal server 1.32.0_&lt;rc&gt;');
  });

  it('results.md escapes what Markdown would read as marks, and reads back as the text itself', () => {
    const md = toMarkdown(resultsDocument(results));
    expect(md).toContain('postgres://ad\\_min:\\*\\*\\*@127.0.0.1:5432/post\\_gres');
    expect(md).toContain('(namespace \\*team\\_a\\*)');
    expect(md).toContain('Journal server 1.32.0\\_\\<rc\\>');
    // A value holding a backtick is fenced by more of them.
    expect(md).toContain('`` ACME_NAMESPACE=team_a*b<i>x</i>` ``');
    // Outside a code span, no run of asterisks is left to open bold.
    expect(md.split('\n').find((l) => l.startsWith('Infrastructure:'))).not.toMatch(/[^\\]\*/);
  });

  it('the terminal shows the text without the escapes', () => {
    const text = toText(resultsDocument(results));
    expect(text).not.toContain('\\*');
  });
});
