/** The language a request asks for: the `lang` query parameter (ja or en), else the first ja/en of Accept-Language. */
import type { FastifyRequest } from 'fastify';
import { isLanguage, type Language } from '../../common/languages.js';

export function requestLanguage(request: FastifyRequest): Language | undefined {
  const query = request.query as { lang?: unknown } | undefined;
  if (isLanguage(query?.lang)) return query.lang;
  const header = request.headers['accept-language'];
  if (typeof header !== 'string') return undefined;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find(Boolean);
      return { language: tag.split('-')[0]!.toLowerCase(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.q > 0 && isLanguage(entry.language))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked[0]?.language as Language | undefined;
}
