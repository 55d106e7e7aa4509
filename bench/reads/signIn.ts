/**
 * A real sign-in against a started portal over HTTP: the authorisation request with PKCE, the provider's sign-in
 * and organisation pages, the code exchanged at its token endpoint — test/server/support/oidc.ts's steps, sent
 * with fetch instead of app.inject.
 */
import type { FastifyInstance, InjectOptions } from 'fastify';
import { signIn } from '../../test/server/support/oidc.js';

/** Just enough of a Fastify instance for oidc.ts: inject() answered by the portal at `baseUrl`. */
function overHttp(baseUrl: string): FastifyInstance {
  const inject = async ({ method, url, headers, payload }: InjectOptions) => {
    const sent = Object.fromEntries(Object.entries(headers ?? {}).filter(([, value]) => value !== '' && value !== undefined)) as Record<string, string>;
    const response = await fetch(new URL(String(url), baseUrl), { method: method ?? 'GET', headers: sent, body: payload as string | undefined, redirect: 'manual' });
    const body = await response.text();
    return {
      statusCode: response.status,
      headers: { location: response.headers.get('location') ?? undefined, 'set-cookie': response.headers.getSetCookie() },
      body,
      json: () => JSON.parse(body) as unknown,
    };
  };
  return { inject, config: { publicUrl: baseUrl } } as unknown as FastifyInstance;
}

/** The access token of `email` signed in for the organisation `gloplaId` at the portal `baseUrl`. */
export async function signInOverHttp(baseUrl: string, email: string, password: string, gloplaId: string): Promise<string> {
  const { tokens } = await signIn(overHttp(baseUrl), { email, password, gloplaId, choose: gloplaId });
  return tokens.access_token;
}
