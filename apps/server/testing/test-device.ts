import type { FastifyInstance } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import type { DeviceCommand } from '@fieldlink/api/device-frames';
import { deviceDownTopic, deviceUpTopic } from '@fieldlink/api/mqtt-topics';

/** A device the test plays over real MQTT: its connection and a way to publish frames as it. */
export interface TestDevice {
  client: MqttClient;
  publish(frame: object): Promise<unknown>;
}

/**
 * Connects as a device to a test app's embedded broker with its own credentials, subscribes to its
 * command topic and hands every command to `onCommand` (which answers with `publish`).
 */
export async function connectTestDevice(
  app: FastifyInstance,
  thingName: string,
  password: string | undefined,
  onCommand: (command: DeviceCommand, publish: TestDevice['publish']) => void,
): Promise<TestDevice> {
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${app.broker!.port}`, {
    clientId: thingName,
    username: thingName,
    password,
    reconnectPeriod: 0,
  });
  await client.subscribeAsync(deviceDownTopic(thingName), { qos: 1 });
  const publish = (frame: object) => client.publishAsync(deviceUpTopic(thingName), JSON.stringify(frame), { qos: 1 });
  client.on('message', (_topic, payload) => onCommand(JSON.parse(payload.toString()) as DeviceCommand, publish));
  return { client, publish };
}

/**
 * Lets a device's QoS 1 publish go on without waiting for its PUBACK (a reply sent from a message
 * handler). A publish still in flight when the test ends the device with a forced end is dropped
 * with it; that rejection ("Connection closed") is expected and would otherwise surface after the
 * test as an error no test catches. Any other failure still surfaces.
 */
export function inBackground(client: MqttClient, publishing: Promise<unknown>): void {
  publishing.catch((error: unknown) => {
    if (!client.disconnecting && !client.disconnected) throw error;
  });
}
