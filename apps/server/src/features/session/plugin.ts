import fp from 'fastify-plugin';
import { REALTIME_CLOSE } from '@fieldlink/api/realtime';
import { CLIENT_VERSION } from '@fieldlink/api/session';
import { registerApiRoutes } from '../../plugins/api-routes';
import { installationSecret } from '../../security/installation';
import { SecretBox } from '../../security/secret-box';
import { SigninGuard } from '../../security/signin-guard';
import { mfaRoutes } from '../mfa/routes';
import { MfaService } from '../mfa/service';
import { passkeyRoutes } from '../passkeys/routes';
import { PasskeyService } from '../passkeys/service';
import { sessionRoutes } from './routes';
import { SessionService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    /** Sign-in (with its second factor), sessions and the console's settings. */
    sessions: SessionService;
  }
}

/** Sessions and second factors (TOTP, passkeys): each ends the other's sessions, so they are made together. */
export const sessionPlugin = fp(
  async (app) => {
    const { config } = app;
    const { db } = app.storage;
    // One set of sign-in limits for passwords and second-factor codes alike (issue 38 item 2).
    const signinGuard = new SigninGuard(app.clock);
    const passkeys: PasskeyService = new PasskeyService({
      db,
      rpName: config.productName,
      publicUrl: config.publicUrl,
      signinGuard,
      tokens: app.tokens,
      // The services below are made next: called only once they exist.
      secondFactorsOf: (userId): Promise<{ required: boolean; totp: boolean }> => mfa.secondFactorsOf(userId),
      endOtherSessions: (user): Promise<unknown> => sessions.endOthers(user, 'secondFactorChanged'),
      now: app.clock,
    });
    const mfa = new MfaService({
      db,
      box: new SecretBox(await installationSecret(db, 'mfa_key')),
      issuer: config.productName,
      signinGuard,
      // The session service is made next, with this one: called only once both exist.
      endOtherSessions: (user): Promise<unknown> => sessions.endOthers(user, 'secondFactorChanged'),
      tokens: app.tokens,
      passkeys,
      now: app.clock,
    });
    const sessions = new SessionService({
      db,
      tokens: app.tokens,
      mailer: app.mailer,
      publicUrl: config.publicUrl,
      mfa,
      signinGuard,
      onSessionsEnded: (userId) =>
        app.accessChanged({ kind: 'usersChanged', userIds: [userId], code: REALTIME_CLOSE.unauthorized }),
      onSignedOut: (jti) => app.accessChanged({ kind: 'tokenEnded', tokenId: jti }),
      now: app.clock,
    });
    app.decorate('sessions', sessions);
    const clientConfig = {
      productName: config.productName,
      clientVersion: CLIENT_VERSION,
      defaultTheme: config.defaultTheme,
      mapTileUrl: config.mapTileUrl,
      mapKey: config.mapKey,
      geocoderUrl: config.geocoderUrl,
      pushPublicKey: app.pushPublicKey,
      sms: app.sms.offered,
    };
    await registerApiRoutes(app, async (api) => {
      await api.register(sessionRoutes, { sessions, clientConfig });
      await api.register(mfaRoutes, { mfa });
      await api.register(passkeyRoutes, { passkeys });
    });
  },
  { name: 'session', dependencies: ['settings', 'storage', 'auth', 'hub', 'mail', 'push', 'sms'] },
);
