/**
 * The single-sign-on gateway's server side (issue 9 §4, SPEC §3 Single-sign-on tokens, §7):
 * - GET admin/single-sign-on?gpc=&gss=&gul= (signed in): tokens for the partner product `gpc`, signed with its shared
 *   secret, for the session's admin and organisation. An unknown product code (or one not usable here: a relative
 *   authUrl outside demo mode) answers 403 forbidden like a session without an organisation of the admin's: the
 *   browser shows 'Forbidden' and goes to top (SPEC §8 Gateway), and the answer does not tell which codes exist.
 * - GET admin/single-sign-on/check?gpc=&gss=&gul= (signed in): 204 when the same query would get tokens, 403 or 422
 *   as that call would refuse it; nothing issued. The gateway asks it before glo=true signs the admin out, so a link
 *   with an unknown product code or a malformed query ends no session (issue 15 finding 6).
 * - POST single-sign-on/verify (the partner, HTTP Basic `gpc:secret`): checks the fields' signature and expiry and
 *   accepts the tokens once, answering who arrived. Refusals: 401 invalid_client (credentials), 401
 *   invalid_signature, token_expired, token_used, invalid_token (unknown guq).
 * README 'Single-sign-on gateway' describes the tokens and the partner's steps.
 */
import type { FastifyPluginAsync } from 'fastify';
import { singleSignOnAnswerSchema, singleSignOnArrivalSchema, type SingleSignOnAnswer, type SingleSignOnArrival } from '../../common/api/answers.js';
import { API_ERROR, type ApiErrorCode } from '../../common/errorCodes.js';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../../common/languages.js';
import { STATE_MAX_LENGTH, STATE_PATTERN } from '../../common/singleSignOn.js';
import { authenticatePartner, findPartnerProduct, issueTokens, redeemTokens, resolveAuthUrl, type RedeemRefusal } from '../domain/singleSignOn.js';
import { requireSessionOrganization, signedIn, useAuthentication, type SignedInAdmin } from './auth.js';
import { ApiError } from './errors.js';
import { SECURITY, TAG } from './openapi.js';
import { errorAnswers, wire } from './schemas.js';

const state = { type: 'string', maxLength: STATE_MAX_LENGTH, pattern: STATE_PATTERN } as const;

const tokensQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    gpc: { type: 'string', minLength: 1, maxLength: 100, description: "The partner product's code" },
    gss: { ...state, description: "The partner's own state, echoed unchanged (no line break, no surrounding white space)" },
    gul: { type: 'string', enum: [...LANGUAGES], description: 'Language of the partner (default ja)' },
  },
  required: ['gpc'],
} as const;

interface TokensQuery {
  gpc: string;
  gss?: string;
  gul?: Language;
}

export const singleSignOnRoutes: FastifyPluginAsync = async (app) => {
  useAuthentication(app);

  app.get<{ Querystring: TokensQuery; Reply: SingleSignOnAnswer }>(
    '/admin/single-sign-on',
    {
      schema: {
        tags: [TAG.singleSignOn],
        summary: 'Single-sign-on tokens for a partner product, valid once and for at most 60 seconds (SINGLE_SIGN_ON_TOKEN_TTL)',
        querystring: tokensQuery,
        response: { 200: wire(singleSignOnAnswerSchema), ...errorAnswers({ 403: [API_ERROR.forbidden] }) },
      },
    },
    async (request) => {
      const admin = signedIn(request);
      const { product, authUrl, organization } = await usableProduct(request.query.gpc, admin);
      const tokens = await issueTokens(app.db, {
        product,
        adminId: admin.id,
        gloplaId: organization.gloplaId,
        gss: request.query.gss ?? '',
        gul: request.query.gul ?? DEFAULT_LANGUAGE,
        ttlSeconds: app.config.singleSignOnTokenTtl,
        now: Date.now(),
      });
      return { authUrl, ...tokens, productId: product.productId };
    },
  );

  app.get<{ Querystring: TokensQuery }>(
    '/admin/single-sign-on/check',
    {
      schema: {
        tags: [TAG.singleSignOn],
        summary: 'Whether GET admin/single-sign-on would answer this query (the gateway asks before glo=true signs out); issues nothing',
        querystring: tokensQuery,
        response: { 204: { type: 'null', description: 'Known product, well-formed query' }, ...errorAnswers({ 403: [API_ERROR.forbidden] }) },
      },
    },
    async (request, reply) => {
      await usableProduct(request.query.gpc, signedIn(request));
      return reply.code(204).send();
    },
  );

  /** The product of `gpc` with its absolute authUrl, and the session's organisation; 403 when either is missing. */
  async function usableProduct(gpc: string, admin: SignedInAdmin) {
    const product = await findPartnerProduct(app.db, gpc);
    const authUrl = product ? resolveAuthUrl(product.authUrl, app.config.publicUrl, app.config.demo) : undefined;
    if (!product || !authUrl) throw new ApiError(403, API_ERROR.forbidden, 'unknown partner product');
    return { product, authUrl, organization: await requireSessionOrganization(app.db, admin) };
  }
};

const field = (description: string, maxLength = 100) => ({ type: 'string', maxLength, description }) as const;

const verifyBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    guq: field('As received'),
    gss: { ...state, description: 'As received' },
    gui: field('As received'),
    goi: field('As received'),
    gul: field('As received'),
    ghs: field('As received'),
    gsg: field('As received'),
  },
  required: ['guq', 'gss', 'gui', 'goi', 'gul', 'ghs', 'gsg'],
} as const;

interface VerifyBody {
  guq: string;
  gss: string;
  gui: string;
  goi: string;
  gul: string;
  ghs: string;
  gsg: string;
}

const REFUSAL_CODE: Record<RedeemRefusal, ApiErrorCode> = {
  invalid_signature: API_ERROR.invalidSignature,
  token_expired: API_ERROR.tokenExpired,
  token_used: API_ERROR.tokenUsed,
  invalid_token: API_ERROR.invalidToken,
};

/** `Authorization: Basic base64(code:secret)` → [code, secret]. */
function basicCredentials(header: string | undefined): [string, string] | undefined {
  const match = header ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 ? [decoded.slice(0, colon), decoded.slice(colon + 1)] : undefined;
}

export const singleSignOnVerifyRoutes: FastifyPluginAsync = async (app) => {
  app.post<{ Body: VerifyBody; Reply: SingleSignOnArrival }>(
    '/single-sign-on/verify',
    {
      // the partner's check of a token: no organisation's data changes (issue 21)
      config: { audit: [] },
      schema: {
        tags: [TAG.singleSignOn],
        summary: "The partner's check of single-sign-on tokens (HTTP Basic: the product's code and secret): accepts them once",
        security: SECURITY.partner,
        body: verifyBody,
        response: {
          200: wire(singleSignOnArrivalSchema),
          ...errorAnswers({ 401: [API_ERROR.invalidClient, API_ERROR.invalidSignature, API_ERROR.tokenExpired, API_ERROR.tokenUsed, API_ERROR.invalidToken] }),
        },
      },
    },
    async (request, reply) => {
      const credentials = basicCredentials(request.headers.authorization);
      const product = credentials ? await authenticatePartner(app.db, credentials[0], credentials[1]) : undefined;
      if (!product) {
        reply.header('www-authenticate', 'Basic realm="single-sign-on"');
        throw new ApiError(401, API_ERROR.invalidClient);
      }
      const outcome = await redeemTokens(app.db, product, request.body, Date.now());
      if (!outcome.ok) {
        request.log.info({ partner: product.code, reason: outcome.reason }, 'single-sign-on tokens refused');
        throw new ApiError(401, REFUSAL_CODE[outcome.reason]);
      }
      return outcome.arrival;
    },
  );
};
