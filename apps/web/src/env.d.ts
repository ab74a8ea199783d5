/// <reference types="vite/client" />

/** The API address settings of the console's build (README "Configuration"; vite.config.ts). */
interface ImportMetaEnv {
  readonly FIELDLINK_API_HOST?: string;
  readonly FIELDLINK_API_DEV_HOST?: string;
  readonly FIELDLINK_API_NEXT_SUBDOMAINS?: string;
}
