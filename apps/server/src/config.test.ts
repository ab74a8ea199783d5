import { describe, expect, it } from 'vitest';
import { deviceBrokerUrl } from './config';

describe('deviceBrokerUrl (shown beside a new device’s credentials)', () => {
  const base = { mqttDeviceUrl: null, mqttUrl: null, publicUrl: 'https://console.example.com', mqttPort: 1883 };
  it.each([
    ['the embedded broker on the public host', base, 'mqtt://console.example.com:1883'],
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
