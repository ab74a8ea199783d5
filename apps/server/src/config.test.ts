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
