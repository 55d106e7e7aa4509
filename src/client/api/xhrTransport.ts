/**
 * A fetch-shaped transport over XMLHttpRequest, for the one thing fetch cannot do in browsers today: report how much
 * of a request body has been sent (issue 19: the percentage of a file upload). It answers a standard Response, so
 * the HTTP client reads the answer exactly as it reads fetch's.
 */

export type UploadProgress = (sent: number, total: number) => void;

function responseHeaders(raw: string): Headers {
  const headers = new Headers();
  for (const line of raw.trim().split(/[\r\n]+/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return headers;
}

function abortError(): DOMException {
  return new DOMException('The upload was aborted.', 'AbortError');
}

/** Shaped as http.ts's FetchLike (not imported: http.ts imports this module). */
export function xhrTransport(onUploadProgress: UploadProgress): (url: string, init: RequestInit) => Promise<Response> {
  return (url, init) =>
    new Promise<Response>((resolve, reject) => {
      if (init.signal?.aborted) return reject(abortError());
      const xhr = new XMLHttpRequest();
      xhr.open(init.method ?? 'GET', url);
      for (const [name, value] of Object.entries((init.headers ?? {}) as Record<string, string>)) xhr.setRequestHeader(name, value);
      xhr.responseType = 'text';
      xhr.upload.onprogress = (event) => onUploadProgress(event.loaded, event.lengthComputable ? event.total : 0);
      xhr.onload = () => {
        // a Response cannot carry a 1xx or 0 status, and no body with 204/304
        const body = xhr.status === 204 || xhr.status === 304 ? null : xhr.responseText;
        resolve(new Response(body, { status: xhr.status, statusText: xhr.statusText, headers: responseHeaders(xhr.getAllResponseHeaders()) }));
      };
      xhr.onerror = () => reject(new TypeError('Network request failed'));
      xhr.ontimeout = xhr.onerror;
      xhr.onabort = () => reject(abortError());
      init.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send((init.body ?? null) as XMLHttpRequestBodyInit | null);
    });
}
