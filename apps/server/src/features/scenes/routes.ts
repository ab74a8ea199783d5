import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorAnswers } from '@fieldlink/api/errors';
import {
  AddSceneBody,
  DeleteByPathBody,
  DeletedAnswer,
  GridLayoutAnswer,
  GridLayoutBody,
  PutWidgetBody,
  Scene,
  SceneOrderAnswer,
  SceneOrderBody,
  UpdateSceneBody,
  Widget,
  SCENE_ROUTES,
} from '@fieldlink/api/scenes';
import { signedInUser } from '../../plugins/auth';
import type { SceneService } from './service';

const errors = errorAnswers(400, 401, 403, 404, 409);

/** Scene and widget calls of application spec §7, and `GET /scenes` to read them. */
export const sceneRoutes: FastifyPluginAsyncTypebox<{ scenes: SceneService }> = async (app, { scenes }) => {
  const tags = ['scenes'];
  app.addHook('onRequest', app.authenticate);
  app.route({
    ...SCENE_ROUTES.scenes,
    handler: (request) => scenes.scenes(signedInUser(request), request.query),
  });
  app.post(
    '/scene',
    {
      schema: {
        tags,
        summary: 'Add a scene at the end of its group’s scenes (needs ADD_EDIT_DELETE_SCENES)',
        body: AddSceneBody,
        response: { 200: Scene, ...errors },
      },
    },
    (request) => scenes.addScene(signedInUser(request), request.body),
  );
  app.put(
    '/scene',
    {
      schema: {
        tags,
        summary: 'Rename a scene or lock its grid (needs ADD_EDIT_DELETE_SCENES)',
        body: UpdateSceneBody,
        response: { 200: Scene, ...errors },
      },
    },
    (request) => scenes.updateScene(signedInUser(request), request.body),
  );
  app.delete(
    '/scene',
    {
      schema: {
        tags,
        summary: 'Delete a scene with its widgets (needs ADD_EDIT_DELETE_SCENES)',
        body: DeleteByPathBody,
        response: { 200: DeletedAnswer, ...errors },
      },
    },
    (request) => scenes.deleteScene(signedInUser(request), request.body),
  );
  app.put(
    '/scenes/order',
    {
      schema: {
        tags,
        summary: 'Order a group’s scenes: every scene id of the group, once (needs ADD_EDIT_DELETE_SCENES)',
        body: SceneOrderBody,
        response: { 200: SceneOrderAnswer, ...errors },
      },
    },
    (request) => scenes.orderScenes(signedInUser(request), request.body),
  );
  app.post(
    '/gridlayout',
    {
      schema: {
        tags,
        summary: 'Save a scene’s grid layout per breakpoint, normalised (needs ADD_EDIT_DELETE_WIDGETS)',
        body: GridLayoutBody,
        response: { 200: GridLayoutAnswer, ...errors },
      },
    },
    (request) => scenes.saveGridLayout(signedInUser(request), request.body),
  );
  app.put(
    '/widget',
    {
      schema: {
        tags,
        summary: 'Add a widget (no id) or replace one (needs ADD_EDIT_DELETE_WIDGETS); answers the widget',
        body: PutWidgetBody,
        response: { 200: Widget, ...errors },
      },
    },
    (request) => scenes.putWidget(signedInUser(request), request.body),
  );
  app.delete(
    '/widget',
    {
      schema: {
        tags,
        summary: 'Delete a widget and its place in the layouts (needs ADD_EDIT_DELETE_WIDGETS)',
        body: DeleteByPathBody,
        response: { 200: DeletedAnswer, ...errors },
      },
    },
    (request) => scenes.deleteWidget(signedInUser(request), request.body),
  );
};
