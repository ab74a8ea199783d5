import fp from 'fastify-plugin';
import type { Config } from '../config';
import type { OtaOptions } from '../features/ota/service';
import { REAL_TIMERS, type Timers } from '../timers';

/** What the process starting the server decides beside the installation's settings (tests set them). */
interface LaunchSettings {
  /** Port of the embedded MQTT broker (0: any free port); null runs without a broker. */
  mqttPort: number | null;
  /** False: the embedded broker takes no plain MQTT, only MQTT over TLS (`MQTT_PORT=0` with TLS). */
  plainMqtt: boolean;
  /** Port of the embedded broker's MQTT over TLS when TLS is configured (0: any free port). */
  mqttTlsPort: number;
  /** How long a device has to answer a command (tests shorten it); the ingest default otherwise. */
  commandTimeoutMs?: number;
  /** Timings of OTA rollouts (tests shorten them). */
  ota?: OtaOptions;
  /** The timers of the embedded broker's drain timeout: real ones unless a test moves them. */
  timers: Timers;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The installation's settings (config.ts), read once at start. */
    config: Config;
    /** The clock of the jobs table, schedules, limits and links: `Date.now` unless a test moves it. */
    clock: () => number;
    /** The broker's ports and the timings tests shorten, as the starting process chose them. */
    launch: LaunchSettings;
  }
}

export interface SettingsOptions {
  config: Config;
  /** The clock; `Date.now` unless a test moves it. */
  now?: () => number;
  mqttPort: LaunchSettings['mqttPort'];
  /** Default true. */
  plainMqtt?: boolean;
  /** Default `MQTT_TLS_PORT`. */
  mqttTlsPort?: number;
  commandTimeoutMs?: number;
  ota?: OtaOptions;
  /** Default {@link REAL_TIMERS}. */
  timers?: Timers;
}

/** The settings and the clock every other plugin reads: registered first. */
export const settingsPlugin = fp<SettingsOptions>(
  async (
    app,
    { config, now = Date.now, mqttPort, plainMqtt = true, mqttTlsPort, commandTimeoutMs, ota, timers = REAL_TIMERS },
  ) => {
    app.decorate('config', config);
    app.decorate('clock', now);
    app.decorate('launch', {
      mqttPort,
      plainMqtt,
      mqttTlsPort: mqttTlsPort ?? config.mqttTlsPort,
      commandTimeoutMs,
      ota,
      timers,
    } satisfies LaunchSettings);
  },
  { name: 'settings' },
);
