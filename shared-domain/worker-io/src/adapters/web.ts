import type { CallMeta, Page, Web } from '@vendor-review/pipeline';
import { metaHeaders } from './headers.ts';
import { htmlTitle, htmlToText } from './html-text.ts';
import { errorForNetwork, errorForStatus } from './http-errors.ts';

export interface HttpWebOptions {
  timeoutMs?: number;
}

/** GET pages over HTTP. HTML comes back as readable text; JSON (a sitemap) comes back as it is. */
export function httpWeb(opts: HttpWebOptions = {}): Web {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  return {
    async get(url: string, meta: CallMeta): Promise<Page> {
      let res: Response;
      let body: string;
      try {
        res = await fetch(url, {
          headers: { Accept: 'text/html, application/json', ...metaHeaders(meta) },
          signal: AbortSignal.timeout(timeoutMs),
        });
        body = await res.text();
      } catch (err) {
        throw errorForNetwork(err, `GET ${url}`);
      }
      if (!res.ok) throw errorForStatus(res.status, `GET ${url}`);
      const isHtml = (res.headers.get('content-type') ?? '').includes('html');
      return { url, status: res.status, title: isHtml ? htmlTitle(body) : '', text: isHtml ? htmlToText(body) : body };
    },
  };
}
