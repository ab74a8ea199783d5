import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorAnswers } from '@fieldlink/api/errors';
import {
  InviteUserAnswer,
  InviteUserBody,
  PutUserAnswer,
  PutUserBody,
  ReinviteUserBody,
  User,
  UserQuery,
} from '@fieldlink/api/users';
import { signedInUser } from '../../plugins/auth';
import type { UserService } from './service';

const errors = errorAnswers(400, 401, 403, 404, 409);

/** User calls of core §7: `GET /user`, `PUT /user`, `POST /invite-user`, `POST /reinvite-user`. */
export const userRoutes: FastifyPluginAsyncTypebox<{ users: UserService }> = async (app, { users }) => {
  const tags = ['users'];
  app.addHook('onRequest', app.authenticate);
  app.get(
    '/user',
    {
      schema: {
        tags,
        summary: 'A user in the caller’s scope (needs VIEW_ACCOUNTS for others)',
        querystring: UserQuery,
        response: { 200: User, ...errors },
      },
    },
    (request) => users.getUser(signedInUser(request), request.query),
  );
  app.put(
    '/user',
    {
      schema: {
        tags,
        summary: 'Change a user: one’s own name, theme and muted devices; others’ names and permissions',
        body: PutUserBody,
        response: { 200: PutUserAnswer, ...errors },
      },
    },
    (request) => users.putUser(signedInUser(request), request.body),
  );
  app.post(
    '/invite-user',
    {
      schema: {
        tags,
        summary: 'Mail an invitation to join at a group (needs INVITE_USERS; only permissions one holds)',
        body: InviteUserBody,
        response: { 200: InviteUserAnswer, ...errors },
      },
    },
    (request) => users.invite(signedInUser(request), request.body),
  );
  app.post(
    '/reinvite-user',
    {
      schema: {
        tags,
        summary: 'Mail a pending invitation again with a new link',
        body: ReinviteUserBody,
        response: { 200: InviteUserAnswer, ...errors },
      },
    },
    (request) => users.reinvite(signedInUser(request), request.body),
  );
};
