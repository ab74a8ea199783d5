import path from 'node:path';

/** Every setting of the server, read once from the environment (README lists them with defaults). */
export interface Config {
  port: number;
  host: string;
  mqttPort: number;
  /** `postgres://…` or a SQLite file path (optionally `sqlite:` prefixed). */
  databaseUrl: string;
  demo: boolean;
  demoPassword: string;
  simulator: boolean;
  /** Seconds between the simulated devices' log frames. */
  simulatorInterval: number;
  smtpUrl: string | null;
  mailFrom: string;
  /** Address the console is reached at, used in mailed links. */
  publicUrl: string;
  /** Extra browser origins allowed to open the real-time socket (the server's own host is always allowed). */
  allowedOrigins: string[];
  mapTileUrl: string | null;
  mapKey: string | null;
  geocoderUrl: string | null;
  productName: string;
  defaultTheme: string;
  logLevel: string;
  /** Session token lifetime in seconds. */
  tokenTtlSeconds: number;
  webDist: string;
}

const ROOT = path.resolve(import.meta.dirname, '../../..');

function int(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} must be a whole number, got "${value}"`);
  return parsed;
}

function flag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return !['0', 'false', 'no', 'off'].includes(value.toLowerCase());
}

function optional(value: string | undefined): string | null {
  return value && value.trim() !== '' ? value.trim() : null;
}

/** Reads the configuration; throws with a clear message on a bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int(env.PORT, 8080, 'PORT');
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    mqttPort: int(env.MQTT_PORT, 1883, 'MQTT_PORT'),
    databaseUrl: env.DATABASE_URL ?? path.join(ROOT, 'data', 'fieldlink.db'),
    demo: flag(env.FIELDLINK_DEMO, true),
    demoPassword: env.FIELDLINK_DEMO_PASSWORD ?? 'fieldlink-demo',
    simulator: flag(env.FIELDLINK_SIMULATOR, true),
    simulatorInterval: int(env.FIELDLINK_SIMULATOR_INTERVAL, 5, 'FIELDLINK_SIMULATOR_INTERVAL'),
    smtpUrl: optional(env.SMTP_URL),
    mailFrom: env.MAIL_FROM ?? 'Fieldlink <no-reply@fieldlink.local>',
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    allowedOrigins: (env.ALLOWED_ORIGINS ?? '')
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    mapTileUrl: optional(env.MAP_TILE_URL),
    mapKey: optional(env.MAP_KEY),
    geocoderUrl: optional(env.GEOCODER_URL),
    productName: env.PRODUCT_NAME ?? 'Fieldlink',
    defaultTheme: env.DEFAULT_THEME ?? 'DEFAULT',
    logLevel: env.LOG_LEVEL ?? 'info',
    tokenTtlSeconds: int(env.TOKEN_TTL_SECONDS, 7 * 24 * 3600, 'TOKEN_TTL_SECONDS'),
    webDist: env.WEB_DIST ?? path.join(ROOT, 'apps', 'web', 'dist'),
  };
}
