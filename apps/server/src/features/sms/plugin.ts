import fp from 'fastify-plugin';
import { registerApiRoutes } from '../../plugins/api-routes';
import { installationSecret } from '../../security/installation';
import { checkOutboundUrl } from '../../security/outbound-url';
import { smsRoutes } from './routes';
import { SmsSender } from './sender';
import { SmsService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    /** Phone numbers, their codes, and alarm notices by SMS. */
    sms: SmsService;
  }
}

export const smsPlugin = fp(
  async (app) => {
    const { config } = app;
    if (config.sms) {
      // The same address rule as webhooks (SECURITY.md 27), said at start rather than at the first alarm.
      const check = await checkOutboundUrl(config.sms.baseUrl, { allowPrivate: config.webhookAllowPrivate });
      if (!check.ok) throw new Error(`SMS_URL: ${check.reason}`);
    }
    const sms = new SmsService({
      db: app.storage.db,
      jobs: app.jobs,
      sender: config.sms && new SmsSender(config.sms, { allowPrivate: config.webhookAllowPrivate }),
      codeKey: await installationSecret(app.storage.db, 'phone_code_key'),
      productName: config.productName,
      logger: app.log,
      now: app.clock,
    });
    app.decorate('sms', sms);
    await registerApiRoutes(app, (api) => api.register(smsRoutes, { sms }));
  },
  { name: 'sms', dependencies: ['settings', 'storage', 'auth', 'jobs'] },
);
