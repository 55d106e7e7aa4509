/**
 * One JSON log line per request (issue 11), written when the answer is complete: Fastify's request id (reqId), the
 * method, the URL with its tokens and query values redacted (the `req` serializer of app.ts), the status, the
 * duration in milliseconds, and who asked where it is known: the signed-in admin (adminId), the session's
 * organisation (gloplaId) and the organisation in the path (organizationId). Fastify's own two lines per request
 * ("incoming request", "request completed") are replaced by this one; its error lines stay.
 * A route's logLevel still applies (the health probes log at warn only).
 */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const params = request.params as Record<string, unknown> | undefined;
    const line = {
      req: request,
      res: { statusCode: reply.statusCode },
      responseTime: Math.round(reply.elapsedTime * 10) / 10,
      adminId: request.admin?.id,
      gloplaId: request.admin?.gloplaId,
      organizationId: typeof params?.orgId === 'string' || typeof params?.orgId === 'number' ? String(params.orgId) : undefined,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
