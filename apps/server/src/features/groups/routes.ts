import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorAnswers } from '@fieldlink/api/errors';
import {
  AddGroupBody,
  DeleteGroupAnswer,
  DeleteGroupBody,
  GroupSummary,
  MoveAnswer,
  MoveBody,
  RenameGroupBody,
} from '@fieldlink/api/groups';
import { signedInUser } from '../../plugins/auth';
import type { GroupService } from './service';

const errors = errorAnswers(400, 401, 403, 404, 409);

/** Group calls of core §7: add, rename and delete a group; move a user, device or group. */
export const groupRoutes: FastifyPluginAsyncTypebox<{ groups: GroupService }> = async (app, { groups }) => {
  const tags = ['groups'];
  app.addHook('onRequest', app.authenticate);
  app.post(
    '/group',
    {
      schema: {
        tags,
        summary: 'Add a subgroup (needs ADD_EDIT_DELETE_GROUPS)',
        body: AddGroupBody,
        response: { 200: GroupSummary, ...errors },
      },
    },
    (request) => groups.addGroup(signedInUser(request), request.body),
  );
  app.put(
    '/group',
    {
      schema: {
        tags,
        summary: 'Rename a group (needs ADD_EDIT_DELETE_GROUPS)',
        body: RenameGroupBody,
        response: { 200: GroupSummary, ...errors },
      },
    },
    (request) => groups.renameGroup(signedInUser(request), request.body),
  );
  app.delete(
    '/group',
    {
      schema: {
        tags,
        summary: 'Delete a group: its devices go to Trash; refused while users are attached in it',
        body: DeleteGroupBody,
        response: { 200: DeleteGroupAnswer, ...errors },
      },
    },
    (request) => groups.deleteGroup(signedInUser(request), request.body),
  );
  app.post(
    '/move',
    {
      schema: {
        tags,
        summary: 'Move a user, device or group to another group (needs ADD_EDIT_DELETE_GROUPS)',
        body: MoveBody,
        response: { 200: MoveAnswer, ...errors },
      },
    },
    (request) => groups.move(signedInUser(request), request.body),
  );
};
