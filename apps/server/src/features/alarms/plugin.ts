import fp from 'fastify-plugin';
import { registerApiRoutes } from '../../plugins/api-routes';
import { alarmLinkRoutes } from '../notifications/routes';
import { AlarmEvaluator } from './evaluator';
import { AlarmNotices } from './notices';
import { alarmRoutes } from './routes';
import { AlarmService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    /** Evaluates channel alarms on the samples this instance stores. */
    alarms: AlarmEvaluator;
  }
}

/** Channel alarms: evaluated as samples are stored, noticed by every channel, answered by their links. */
export const alarmsPlugin = fp(
  async (app) => {
    const { config } = app;
    const { db } = app.storage;
    const notices = new AlarmNotices({
      db,
      jobs: app.jobs,
      webhooks: app.webhooks,
      mailer: app.mailer,
      push: app.push,
      sms: app.sms,
      productName: config.productName,
      notifications: app.notifications,
      links: app.alarmLinks,
      now: app.clock,
      publicUrl: config.publicUrl,
      policy: {
        reminderIntervalMs: config.alarmReminderSeconds * 1000,
        escalationDelayMs: config.alarmEscalationSeconds * 1000,
      },
      disconnectAlertMs: config.disconnectAlertSeconds * 1000,
    });
    const directory = app.directory;
    const alarms = new AlarmEvaluator(
      db,
      app.events,
      app.jobs,
      notices,
      (thingName) => directory.find(thingName),
      app.log,
    );
    await alarms.start();
    app.decorate('alarms', alarms);
    app.shutdown.add('alarms', () => alarms.stop());
    const service = new AlarmService(db, app.devices, alarms);
    await registerApiRoutes(app, async (api) => {
      await api.register(alarmRoutes, { alarms: service });
      await api.register(alarmLinkRoutes, { links: app.alarmLinks, alarms: service, productName: config.productName });
    });
  },
  {
    name: 'alarms',
    dependencies: ['settings', 'storage', 'auth', 'shutdown', 'jobs', 'ingest', 'devices', 'mail', 'webhooks'],
  },
);
