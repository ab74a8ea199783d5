import { timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import { Type, type Static } from '@sinclair/typebox';
import { deviceDownTopic, deviceUpTopic, isThingName } from '@fieldlink/api/mqtt-topics';
import { secretMatches } from '../security/secrets';

/** What EMQX sends (configured as in docs/operations.md). */
const AuthenticateBody = Type.Object({
  clientid: Type.String({ maxLength: 256 }),
  username: Type.Optional(Type.String({ maxLength: 256 })),
  password: Type.Optional(Type.String({ maxLength: 1024 })),
});
const AuthorizeBody = Type.Object({
  clientid: Type.String({ maxLength: 256 }),
  username: Type.Optional(Type.String({ maxLength: 256 })),
  topic: Type.String({ maxLength: 1024 }),
  action: Type.String({ maxLength: 16 }),
});

function same(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * EMQX's HTTP authentication and authorisation backed by Fieldlink's own device table: with it
 * (`MQTT_PROVISIONING=none`) EMQX asks Fieldlink on every CONNECT, publish and subscribe, so no
 * account needs provisioning into the broker. Same rules as the embedded broker: the client id and
 * user name are the thing name, the password is the device secret, and a device may publish only to
 * its up topic and subscribe only to its down topic. Any error is a refusal (fail closed). EMQX
 * sends `MQTT_AUTH_SECRET` as a bearer token, and nothing is answered without it; Fieldlink's own
 * account (`MQTT_ADMIN_USERNAME`) is a superuser at the broker.
 */
export const emqxAuthPlugin = fp(
  async (app) => {
    const { config, directory } = app;
    if (config.mqttProvisioning !== 'none' || !config.mqttAuthSecret) return;
    const secret = config.mqttAuthSecret;
    const serverUsername = config.mqttAdminUsername;
    const serverPassword = config.mqttAdminPassword;
    const authorised = (header: string | undefined) => same(header ?? '', `Bearer ${secret}`);

    app.post<{ Body: Static<typeof AuthenticateBody> }>(
      '/broker/emqx/authenticate',
      { schema: { hide: true, body: AuthenticateBody } },
      async (request, reply) => {
        if (!authorised(request.headers.authorization)) return reply.code(401).send({ result: 'deny' });
        const { clientid, username, password } = request.body;
        if (serverUsername && serverPassword && username === serverUsername) {
          return {
            result: password !== undefined && same(password, serverPassword) ? 'allow' : 'deny',
            is_superuser: true,
          };
        }
        if (!password || username !== clientid || !isThingName(clientid))
          return { result: 'deny', is_superuser: false };
        try {
          const device = await directory.find(clientid);
          const allowed = device !== null && secretMatches(password, device.secretHash);
          return { result: allowed ? 'allow' : 'deny', is_superuser: false };
        } catch {
          return { result: 'deny', is_superuser: false };
        }
      },
    );

    app.post<{ Body: Static<typeof AuthorizeBody> }>(
      '/broker/emqx/authorize',
      { schema: { hide: true, body: AuthorizeBody } },
      async (request, reply) => {
        if (!authorised(request.headers.authorization)) return reply.code(401).send({ result: 'deny' });
        const { clientid, username, topic, action } = request.body;
        if (username !== clientid || !isThingName(clientid)) return { result: 'deny' };
        const allowed =
          (action === 'publish' && topic === deviceUpTopic(clientid)) ||
          (action === 'subscribe' && topic === deviceDownTopic(clientid));
        return { result: allowed ? 'allow' : 'deny' };
      },
    );
  },
  { name: 'emqx-auth', dependencies: ['settings', 'ingest'] },
);
