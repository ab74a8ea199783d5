/** Debian's HAProxy 2.6 (`npm test` installs it like Mosquitto); FIELDLINK_TEST_HAPROXY points elsewhere. */
export const HAPROXY_BIN = process.env.FIELDLINK_TEST_HAPROXY ?? '/usr/sbin/haproxy';
