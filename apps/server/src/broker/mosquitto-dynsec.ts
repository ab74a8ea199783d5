import { randomUUID } from 'node:crypto';
import type { MqttClient } from 'mqtt';
import { deviceDownTopic, deviceUpTopic, isThingName } from '@fieldlink/api/mqtt-topics';
import type { DeviceCredentialStore } from './device-broker';

const CONTROL_TOPIC = '$CONTROL/dynamic-security/v1';
const RESPONSE_TOPIC = `${CONTROL_TOPIC}/response`;
/** Role of Fieldlink's own account: every device's up and down topic, and the server topics. */
export const SERVER_ROLE = 'fieldlink-server';
const DEVICE_ROLE_PREFIX = 'fieldlink-device-';

type Acl = { acltype: string; topic: string; allow: boolean; priority?: number };
type DynsecCommand = Record<string, unknown> & { command: string };
type DynsecResponse = { command: string; error?: string; data?: unknown; correlationData?: string };

export const SERVER_ACLS: Acl[] = [
  { acltype: 'subscribePattern', topic: 'dev/+/up', allow: true },
  { acltype: 'publishClientReceive', topic: 'dev/+/up', allow: true },
  { acltype: 'publishClientSend', topic: 'dev/+/down', allow: true },
  { acltype: 'subscribePattern', topic: 'fieldlink/#', allow: true },
  { acltype: 'publishClientSend', topic: 'fieldlink/#', allow: true },
  { acltype: 'publishClientReceive', topic: 'fieldlink/#', allow: true },
  { acltype: 'unsubscribePattern', topic: '#', allow: true },
];

function aclKey(acl: Acl): string {
  return `${acl.acltype} ${acl.topic} ${acl.allow} ${acl.priority ?? 0}`;
}

function sameAcls(current: Acl[], wanted: Acl[]): boolean {
  const have = new Set(current.map(aclKey));
  return have.size === wanted.length && wanted.every((acl) => have.has(aclKey(acl)));
}

/**
 * A device may publish to its own up topic and subscribe to, and receive from, its own down topic;
 * nothing else. Mosquitto 2.0's dynamic security does not substitute `%c` in topics, so each device
 * has a role of its own; the client id is bound to the user name, so a device cannot connect as
 * another (and a thing name never holds `+`, `#` or `/`: CVE-2017-7650).
 */
function deviceAcls(thingName: string): Acl[] {
  return [
    { acltype: 'publishClientSend', topic: deviceUpTopic(thingName), allow: true },
    { acltype: 'subscribeLiteral', topic: deviceDownTopic(thingName), allow: true },
    { acltype: 'publishClientReceive', topic: deviceDownTopic(thingName), allow: true },
    // Whatever the broker's default, nothing else is delivered (retained messages, restored sessions).
    { acltype: 'publishClientReceive', topic: '#', allow: false, priority: -1 },
  ];
}

/**
 * Device credentials provisioned into Mosquitto 2 with its dynamic-security plugin: Fieldlink signs
 * in with an account holding the plugin's `admin` role and sends commands to
 * `$CONTROL/dynamic-security/v1`. Answers are matched by correlation data, so every instance of a
 * cluster can share the response topic.
 */
export class MosquittoDynsec implements DeviceCredentialStore {
  private readonly pending = new Map<string, (responses: DynsecResponse[]) => void>();
  private subscribed: Promise<unknown> | null = null;

  constructor(
    private readonly client: MqttClient,
    private readonly serverUsername: string | undefined,
    private readonly timeoutMs = 5000,
  ) {
    client.on('message', (topic, payload) => {
      if (topic !== RESPONSE_TOPIC) return;
      let answer: { responses?: DynsecResponse[] };
      try {
        answer = JSON.parse(payload.toString('utf8')) as { responses?: DynsecResponse[] };
      } catch {
        return;
      }
      const responses = answer.responses ?? [];
      const id = responses.find((response) => response.correlationData)?.correlationData;
      const settle = id ? this.pending.get(id) : undefined;
      if (id && settle) {
        this.pending.delete(id);
        settle(responses);
      }
    });
  }

  /**
   * Creates (or brings up to date) the server role and grants it to Fieldlink's own account. The
   * plugin disconnects every client whose roles change, so each change is made only when needed:
   * once at the first start, not at every start of every instance.
   */
  async setUp(): Promise<void> {
    const [role] = await this.run([{ command: 'getRole', rolename: SERVER_ROLE }]);
    if (role?.error) {
      await this.expect([{ command: 'createRole', rolename: SERVER_ROLE, acls: SERVER_ACLS }]);
    } else if (!sameAcls((role?.data as { role?: { acls?: Acl[] } })?.role?.acls ?? [], SERVER_ACLS)) {
      await this.expect([{ command: 'modifyRole', rolename: SERVER_ROLE, acls: SERVER_ACLS }]);
    }
    if (!this.serverUsername || (await this.hasServerRole())) return;
    // Granting the role to ourselves disconnects this very connection, answer included: send it,
    // then check once reconnected.
    await this.client.publishAsync(
      CONTROL_TOPIC,
      JSON.stringify({
        commands: [{ command: 'addClientRole', username: this.serverUsername, rolename: SERVER_ROLE, priority: 10 }],
      }),
      { qos: 1 },
    );
    const deadline = Date.now() + 3 * this.timeoutMs;
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      if (this.client.connected && (await this.hasServerRole().catch(() => false))) return;
    }
    throw new Error(`Mosquitto dynamic security: could not grant ${SERVER_ROLE} to ${this.serverUsername}`);
  }

  private async hasServerRole(): Promise<boolean> {
    const [client] = await this.run([{ command: 'getClient', username: this.serverUsername }]);
    if (client?.error) throw new Error(`Mosquitto dynamic security: ${client.error}`);
    const roles = (client?.data as { client?: { roles?: { rolename: string }[] } })?.client?.roles ?? [];
    return roles.some((entry) => entry.rolename === SERVER_ROLE);
  }

  async provision(thingName: string, password: string): Promise<void> {
    if (!isThingName(thingName)) throw new Error(`Not a thing name: ${thingName}`);
    const rolename = DEVICE_ROLE_PREFIX + thingName;
    const [role, client] = await this.run([
      { command: 'createRole', rolename, acls: deviceAcls(thingName) },
      {
        command: 'createClient',
        username: thingName,
        clientid: thingName,
        password,
        roles: [{ rolename, priority: 1 }],
      },
    ]);
    if (role?.error && !/exists/i.test(role.error)) throw new Error(`Mosquitto dynamic security: ${role.error}`);
    if (client?.error) {
      if (!/exists/i.test(client.error)) throw new Error(`Mosquitto dynamic security: ${client.error}`);
      // Provisioned before (every start re-provisions the demo fleet). Changing an account
      // disconnects its device, so an account already bound to its role is left alone.
      const [existing] = await this.run([{ command: 'getClient', username: thingName }]);
      const account = (existing?.data as { client?: { clientid?: string; roles?: { rolename: string }[] } })?.client;
      if (account?.clientid === thingName && account.roles?.some((entry) => entry.rolename === rolename)) return;
      await this.expect([
        { command: 'modifyRole', rolename, acls: deviceAcls(thingName) },
        {
          command: 'modifyClient',
          username: thingName,
          clientid: thingName,
          password,
          roles: [{ rolename, priority: 1 }],
        },
      ]);
    }
  }

  async remove(thingName: string): Promise<void> {
    const responses = await this.run([
      { command: 'deleteClient', username: thingName },
      { command: 'deleteRole', rolename: DEVICE_ROLE_PREFIX + thingName },
    ]);
    const failed = responses.find((response) => response.error && !/not found/i.test(response.error));
    if (failed) throw new Error(`Mosquitto dynamic security: ${failed.error}`);
  }

  private async expect(commands: DynsecCommand[]): Promise<void> {
    const failed = (await this.run(commands)).find((response) => response.error);
    if (failed) throw new Error(`Mosquitto dynamic security: ${failed.command}: ${failed.error}`);
  }

  /**
   * Sends commands in one message; answers one response per command, in order. An answer lost to a
   * reconnect is asked for again: every command Fieldlink sends can be repeated.
   */
  private async run(commands: DynsecCommand[], attempts = 3): Promise<DynsecResponse[]> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.runOnce(commands);
      } catch (error) {
        if (attempt >= attempts) throw error;
      }
    }
  }

  private async runOnce(commands: DynsecCommand[]): Promise<DynsecResponse[]> {
    this.subscribed ??= this.client.subscribeAsync(RESPONSE_TOPIC, { qos: 1 }).catch((error: unknown) => {
      this.subscribed = null;
      throw error;
    });
    await this.subscribed;
    const id = randomUUID();
    const answer = new Promise<DynsecResponse[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error('Mosquitto dynamic security did not answer'));
      }, this.timeoutMs);
      this.pending.set(id, (responses) => {
        clearTimeout(timer);
        resolve(responses);
      });
    });
    await this.client.publishAsync(
      CONTROL_TOPIC,
      JSON.stringify({ commands: commands.map((command) => ({ ...command, correlationData: id })) }),
      { qos: 1 },
    );
    return answer;
  }
}
