import { describe, expect, it } from 'vitest';
import { deviceBrokerUrl, loadConfig } from './config';

describe('deviceBrokerUrl (shown beside a new device’s credentials)', () => {
  const base = {
    mqttDeviceUrl: null,
    mqttUrl: null,
    publicUrl: 'https://console.example.com',
    mqttPort: 1883,
    tls: null,
    mqttTlsPort: 8883,
  };
  const tls = { certFile: '/etc/fieldlink/cert.pem', keyFile: '/etc/fieldlink/key.pem' };
  it.each([
    ['the embedded broker on the public host', base, 'mqtt://console.example.com:1883'],
    ['MQTT over TLS when the server has a certificate', { ...base, tls }, 'mqtts://console.example.com:8883'],
    [
      'MQTT_DEVICE_URL when set',
      { ...base, mqttUrl: 'mqtt://fl:secret@broker:1883', mqttDeviceUrl: 'mqtts://mqtt.example.com:8883' },
      'mqtts://mqtt.example.com:8883',
    ],
    [
      'the external broker without Fieldlink’s account',
      { ...base, mqttUrl: 'mqtts://fieldlink:secret@broker.internal:8883' },
      'mqtts://broker.internal:8883',
    ],
  ])('%s', (_name, config, url) => expect(deviceBrokerUrl(config)).toBe(url));
});

describe('TLS settings', () => {
  const files = { TLS_CERT_FILE: '/etc/fieldlink/cert.pem', TLS_KEY_FILE: '/etc/fieldlink/key.pem' };
  it.each([
    ['neither file: plain HTTP', {}, { tls: null, publicUrl: 'http://localhost:8080', mqttPort: 1883 }],
    [
      'both files: HTTPS, and MQTT over TLS on 8883',
      files,
      {
        tls: { certFile: files.TLS_CERT_FILE, keyFile: files.TLS_KEY_FILE },
        publicUrl: 'https://localhost:8080',
        mqttTlsPort: 8883,
      },
    ],
    ['MQTT_PORT=0 with TLS: plain MQTT off', { ...files, MQTT_PORT: '0' }, { mqttPort: 0 }],
  ])('%s', (_name, env, expected) => expect(loadConfig(env)).toMatchObject(expected));

  it.each([
    [
      'a certificate without its key',
      { TLS_CERT_FILE: '/c.pem' },
      'TLS_CERT_FILE and TLS_KEY_FILE must be set together',
    ],
    [
      'a key without its certificate',
      { TLS_KEY_FILE: '/k.pem' },
      'TLS_CERT_FILE and TLS_KEY_FILE must be set together',
    ],
    ['plain MQTT off without TLS: no way in for devices', { MQTT_PORT: '0' }, 'MQTT_PORT=0 turns plain MQTT off'],
  ])('refuses %s', (_name, env, message) => expect(() => loadConfig(env)).toThrow(message));
});

describe('SMS settings (issue 39 item 4)', () => {
  const mg = `MG${'0123456789abcdef'.repeat(2)}`;
  it.each([
    ['unset: no SMS', {}, { sms: null }],
    [
      'everything in the URL',
      { SMS_URL: 'https://AC123:s3cr%2Ft@api.twilio.com/?from=%2B15551234567' },
      {
        sms: {
          baseUrl: 'https://api.twilio.com',
          accountSid: 'AC123',
          authToken: 's3cr/t',
          from: '+15551234567',
          messagingServiceSid: null,
        },
      },
    ],
    [
      'the base URL with settings, a messaging service as sender',
      { SMS_URL: 'https://sms.example.com/twilio/', SMS_ACCOUNT_SID: 'AC9', SMS_AUTH_TOKEN: 't', SMS_FROM: mg },
      {
        sms: { baseUrl: 'https://sms.example.com/twilio', accountSid: 'AC9', from: null, messagingServiceSid: mg },
      },
    ],
    [
      'an alphanumeric sender id',
      { SMS_URL: 'https://AC1:t@api.twilio.com', SMS_FROM: 'Fieldlink' },
      { sms: { from: 'Fieldlink' } },
    ],
    [
      'plain http where private addresses are allowed',
      { SMS_URL: 'http://AC1:t@127.0.0.1:9999?from=%2B15551234567', FIELDLINK_WEBHOOK_ALLOW_PRIVATE: '1' },
      { sms: { baseUrl: 'http://127.0.0.1:9999' } },
    ],
  ])('reads %s', (_name, env, expected) => expect(loadConfig(env)).toMatchObject(expected));

  it.each([
    ['a URL that is not one', { SMS_URL: 'api.twilio.com' }, 'SMS_URL is not a valid URL'],
    ['plain http', { SMS_URL: 'http://AC1:t@api.twilio.com?from=%2B15551234567' }, 'SMS_URL must begin with https://'],
    ['no token', { SMS_URL: 'https://AC1@api.twilio.com?from=%2B15551234567' }, 'SMS_URL needs the auth token'],
    [
      'nothing but the base',
      { SMS_URL: 'https://api.twilio.com' },
      'SMS_URL needs the account SID (SMS_ACCOUNT_SID), the auth token (SMS_AUTH_TOKEN), the sender (SMS_FROM)',
    ],
    [
      'the account twice',
      { SMS_URL: 'https://AC1:t@api.twilio.com?from=%2B15551234567', SMS_ACCOUNT_SID: 'AC2' },
      'SMS_ACCOUNT_SID is given both in SMS_URL and as SMS_ACCOUNT_SID',
    ],
    [
      'a sender that is no number, name or service',
      { SMS_URL: 'https://AC1:t@api.twilio.com?from=5551234567' },
      'SMS_FROM "5551234567" is neither',
    ],
    [
      'an unknown parameter',
      { SMS_URL: 'https://AC1:t@api.twilio.com?from=%2B15551234567&to=x' },
      'unknown parameter to',
    ],
    ['settings without the URL', { SMS_AUTH_TOKEN: 't' }, 'SMS_AUTH_TOKEN set without SMS_URL'],
  ])('refuses %s', (_name, env, message) => expect(() => loadConfig(env)).toThrow(message));
});
