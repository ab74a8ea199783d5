import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AuditChoicesAnswer,
  AuditLogAnswer,
  AuditLogQuery,
  AuditVerifyAnswer,
  AuditAccountQuery,
} from '@fieldlink/api/audit';
import { errorAnswers } from '@fieldlink/api/errors';
import { signedInUser } from '../../plugins/auth';
import type { AuditService } from './service';

const errors = errorAnswers(400, 401, 403, 404);

/** The audit trail (issue 38 item 1): read and verify; no call edits or deletes an entry. */
export const auditRoutes: FastifyPluginAsyncTypebox<{ audit: AuditService }> = async (app, { audit }) => {
  const tags = ['audit'];
  app.addHook('onRequest', app.authenticate);
  app.get(
    '/audit-log',
    {
      schema: {
        tags,
        summary: 'An account’s audit trail, newest first, a page at a time (administrators)',
        querystring: AuditLogQuery,
        response: { 200: AuditLogAnswer, ...errors },
      },
    },
    (request) => audit.list(signedInUser(request), request.query),
  );
  app.get(
    '/audit-log/choices',
    {
      schema: {
        tags,
        summary: 'Every user, token, job and device an account’s audit trail names, for its filters (administrators)',
        querystring: AuditAccountQuery,
        response: { 200: AuditChoicesAnswer, ...errors },
      },
    },
    (request) => audit.choices(signedInUser(request), request.query),
  );
  app.get(
    '/audit-log/verify',
    {
      schema: {
        tags,
        summary: 'Walks an account’s audit hash chain and says where it breaks (administrators)',
        querystring: AuditAccountQuery,
        response: { 200: AuditVerifyAnswer, ...errors },
      },
    },
    (request) => audit.verify(signedInUser(request), request.query),
  );
};
