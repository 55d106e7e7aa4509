/**
 * What may reach a log of a URL (issue 7 finding 4): activation and reset tokens, authorisation codes and the like
 * travel in paths and queries, so logs keep the shape of a URL but not those values. Shared by the server's request
 * log and the browser's error reports.
 */
export const REDACTED = '[redacted]';

/** Query parameters whose values are harmless and help reading a log. */
const SHOWN_QUERY_KEYS = new Set(['lang', 'locale', 'ui_locales', 'prompt', 'page', 'per_page', 'error', 'error_message_key']);

/** Mailed tokens (43 characters), interaction ids (21) and other opaque ids: long runs of base64url. */
const TOKEN_SEGMENT = /^[A-Za-z0-9_-]{20,}$/;
const ACTIVATION_PATH = /^\/admins\/[^/]+\/activate$/;

export function redactPath(path: string): string {
  const segments = path.split('/');
  return segments
    .map((segment, index) => {
      if (TOKEN_SEGMENT.test(segment)) return REDACTED;
      if (index > 0 && ACTIVATION_PATH.test(segments.slice(0, index).join('/'))) return REDACTED;
      return segment;
    })
    .join('/');
}

function splitUrl(url: string): { base: string; query: string } {
  const withoutHash = url.split('#', 1)[0]!;
  const at = withoutHash.indexOf('?');
  return at < 0 ? { base: withoutHash, query: '' } : { base: withoutHash.slice(0, at), query: withoutHash.slice(at + 1) };
}

/** A request URL (path and query) for the log: token segments and query values hidden, names kept, no hash. */
export function redactUrlForLog(url: string): string {
  const { base, query } = splitUrl(url);
  if (query === '') return redactPath(base);
  const params = query
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      const name = at < 0 ? pair : pair.slice(0, at);
      return at < 0 || SHOWN_QUERY_KEYS.has(name) ? pair : `${name}=${REDACTED}`;
    });
  return `${redactPath(base)}?${params.join('&')}`;
}

/** A page's location for an error report: origin and path (token segments hidden), never the query or the hash. */
export function reportedLocation(href: string): string {
  const { base } = splitUrl(href);
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(base)?.[0] ?? '';
  return origin + redactPath(base.slice(origin.length));
}
