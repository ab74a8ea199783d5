// What `npm test` (scripts/test.mjs) needs of the server's test support before any test starts: where
// Mosquitto, its dynamic-security plugin and HAProxy are, and a PostgreSQL server to test against. Kept
// apart from `public.ts` because that one loads the whole app (16 s under load), which the runner's
// start-up check has no use for.
export { DYNSEC_PLUGIN, MOSQUITTO_BIN } from './cluster/mosquitto';
export { HAPROXY_BIN } from './cluster/haproxy';
export { provideTestPostgres } from './test-postgres';
