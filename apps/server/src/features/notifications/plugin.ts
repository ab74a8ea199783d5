import fp from 'fastify-plugin';
import { registerApiRoutes } from '../../plugins/api-routes';
import { installationSecret } from '../../security/installation';
import { AlarmLinks } from './alarm-links';
import { notificationRoutes } from './routes';
import { NotificationService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    /** Who is told of an alarm, by which channel, and when (on-call shifts). */
    notifications: NotificationService;
    /** Signed links in alarm notices (their calls: the alarms plugin). */
    alarmLinks: AlarmLinks;
  }
}

export const notificationsPlugin = fp(
  async (app) => {
    const { db } = app.storage;
    const notifications = new NotificationService({
      db,
      smsReach: (userId) => app.sms.reach(userId),
      now: app.clock,
    });
    const alarmLinks = new AlarmLinks({
      db,
      secret: await installationSecret(db, 'alarm_link_secret'),
      publicUrl: app.config.publicUrl,
      now: app.clock,
    });
    app.decorate('notifications', notifications);
    app.decorate('alarmLinks', alarmLinks);
    await registerApiRoutes(app, (api) => api.register(notificationRoutes, { notifications }));
  },
  { name: 'notifications', dependencies: ['settings', 'storage', 'auth', 'sms'] },
);
