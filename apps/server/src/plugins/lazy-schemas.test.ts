import { Type } from '@sinclair/typebox';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { startTestApp } from '../../testing/test-app';
import { serverInstance } from './server-instance';

/** A bare instance as the app makes it, with the lazy compilers, for one route. */
function bareInstance() {
  return serverInstance(loadConfig({ DATABASE_URL: ':memory:' })).app;
}

describe('route schemas compiled on first use', () => {
  const apps: { close(): Promise<unknown> }[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  it('compiles every schema of the whole app', async () => {
    const t = await startTestApp('sqlite');
    apps.push(t);
    expect(() => t.app.compileSchemas()).not.toThrow();
  });

  it('still refuses a schema that does not compile, in the check', async () => {
    const app = bareInstance();
    apps.push(app);
    app.get(
      '/broken',
      { schema: { querystring: { type: 'object', properties: { at: { $ref: 'nowhere#' } } } } },
      async () => 'no',
    );
    await app.ready();
    expect(() => app.compileSchemas()).toThrow(/nowhere/);
  });

  it('validates, coerces and answers as Fastify compiles them', async () => {
    const app = bareInstance();
    apps.push(app);
    app.post(
      '/things',
      {
        schema: {
          querystring: Type.Object({ ids: Type.Array(Type.Integer()), limit: Type.Integer({ default: 10 }) }),
          body: Type.Object({ name: Type.String({ minLength: 1 }) }),
          response: {
            200: Type.Object({ ids: Type.Array(Type.Integer()), limit: Type.Integer(), name: Type.String() }),
          },
        },
      },
      async (request) => Object.assign({ secret: 'left out' }, request.query, request.body),
    );
    await app.ready();

    const ok = await app.inject({ method: 'POST', url: '/things?ids=7', payload: { name: 'tank' } });
    expect(ok.statusCode).toBe(200);
    // One value read as an array of integers, the default filled in, an undeclared field not sent.
    expect(ok.json()).toEqual({ ids: [7], limit: 10, name: 'tank' });

    const refused = await app.inject({ method: 'POST', url: '/things?ids=7', payload: { name: '' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('body/name must NOT have fewer than 1 characters');
    const notANumber = await app.inject({ method: 'POST', url: '/things?ids=x', payload: { name: 'tank' } });
    expect(notANumber.statusCode).toBe(400);
    expect(notANumber.json().message).toBe('querystring/ids/0 must be integer');
  });

  it('refuses a header schema at start', async () => {
    const app = bareInstance();
    apps.push(app);
    app.get('/h', { schema: { headers: Type.Object({ 'X-Key': Type.String() }) } }, async () => 'no');
    await expect(app.ready()).rejects.toThrow(/header schemas are not supported/);
  });
});
