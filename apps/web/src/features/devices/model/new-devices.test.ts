import { describe, expect, it } from 'vitest';
import type { GroupNode } from '@fieldlink/api/account';
import { treeAccount, treeGroup } from '../../../lib/tree-fixtures';
import { connectionExample, credentialsCsv, devicePlaces } from './new-devices';

const group = (id: string, name: string, kind: GroupNode['kind'], groups: GroupNode[] = [], accountId = 'acme') =>
  treeGroup(id, { name, accountId, kind, groups });

describe('devicePlaces', () => {
  it('lists every group but the Trash, with its names from the top, marking New Devices', () => {
    const east = group('east', 'Acme East', 'root', [group('pumps', 'Pumps', 'group', [], 'east')], 'east');
    const root = group('root', 'Acme', 'root', [
      group('new', 'New Devices', 'new'),
      group('trash', 'Trash', 'trash', [group('old', 'Old', 'group')]),
      group('boilers', 'Boiler Room', 'group', [east]),
    ]);
    const account = treeAccount(root, { id: 'acme' });
    expect(
      devicePlaces([account]).map((place) => [place.groupId, place.accountId, place.label, place.isNewDevices]),
    ).toEqual([
      ['root', 'acme', 'Acme', false],
      ['new', 'acme', 'Acme / New Devices', true],
      ['boilers', 'acme', 'Acme / Boiler Room', false],
      ['east', 'east', 'Acme / Boiler Room / Acme East', false],
      ['pumps', 'east', 'Acme / Boiler Room / Acme East / Pumps', false],
    ]);
  });
});

describe('connectionExample', () => {
  it.each([
    ['mqtt://console.example.com:1883', '-h console.example.com -p 1883 \\'],
    ['mqtts://mqtt.example.com:8883', '-h mqtt.example.com -p 8883 --capath /etc/ssl/certs \\'],
    ['mqtt://broker.local', '-h broker.local -p 1883 \\'],
  ])('publishes a frame to %s as the device', (brokerUrl, hostLine) => {
    const lines = connectionExample(brokerUrl, 'FL0123456789', 's3cr3t').split('\n');
    expect(lines[0]).toBe(`mosquitto_pub -V mqttv311 ${hostLine}`);
    expect(lines[1]).toBe("  -i FL0123456789 -u FL0123456789 -P 's3cr3t' \\");
    expect(lines[2]).toBe(`  -q 1 -t dev/FL0123456789/up -m '{"v":4,"type":"log","values":{"c1":21.5}}'`);
  });
});

describe('credentialsCsv', () => {
  it('writes a line per device, with formulas neutralised', () => {
    const csv = credentialsCsv(
      [
        {
          line: 2,
          deviceId: 'd1',
          name: '=HYPERLINK("x")',
          sn: null,
          groupPath: 'Acme / Boiler Room',
          thingName: 'FL01',
          password: 'abc-_1',
        },
      ],
      'mqtt://h:1883',
    );
    expect(csv).toBe(
      'name,serial,group path,thing name,password,broker\r\n' +
        `"'=HYPERLINK(""x"")",,Acme / Boiler Room,FL01,abc-_1,mqtt://h:1883\r\n`,
    );
  });
});
