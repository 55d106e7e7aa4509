/**
 * The SAML service provider's public routes (issue 45). `GET /saml/{connectionId}/metadata`: the SP metadata a
 * customer's IdP imports (entity ID, ACS URL, the SP's signing certificate) — public, as IdPs fetch it without a
 * session, for a SAML connection in any state (a draft is set up with it). An unknown id, or an OIDC connection's,
 * is 404. The ACS (POST /saml/{connectionId}/acs) goes with the sign-in's interaction, not here.
 */
import type { FastifyPluginAsync } from 'fastify';
import { samlServiceProvider } from './serviceProvider.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const samlRoutes: FastifyPluginAsync = async (app) => {
  const sp = samlServiceProvider(app.db, { publicUrl: app.config.publicUrl, allowLoopback: app.config.demo, allowPrivate: app.config.sso.allowPrivateAddresses, mfaContexts: app.config.sso.mfaContexts });
  app.get<{ Params: { connectionId: string } }>('/saml/:connectionId/metadata', { schema: { hide: true } }, async (request, reply) => {
    const { connectionId } = request.params;
    const connection = UUID.test(connectionId)
      ? await app.db.selectFrom('ssoConnections').select(['id', 'attributeEmail']).where('id', '=', connectionId.toLowerCase()).where('protocol', '=', 'saml').executeTakeFirst()
      : undefined;
    if (!connection) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    return reply
      .type('application/samlmetadata+xml; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .header('content-disposition', `attachment; filename="sp-metadata-${connection.id}.xml"`)
      .send(await sp.metadataXml(connection));
  });
};
