import { describe, expect, it } from 'vitest';
import type { DeviceCommand } from '@fieldlink/api/device-frames';
import type { AuditRecord } from '../features/audit/service';
import { until } from '../../testing/until';
import { CommandService, type CommandSender } from './commands';

const SENDER: CommandSender = {
  by: { actor: { kind: 'user', id: 'u1', name: 'ops@fieldlink.test' }, address: null, client: null },
  device: { id: 'd1', accountId: 'a1', name: 'Boiler 2' },
};

/** A command service whose audit writes finish when the test says, publishing into a list. */
function service(writeEntry: (entry: AuditRecord, index: number) => Promise<void>) {
  const published: DeviceCommand[] = [];
  let writes = 0;
  const commands = new CommandService(
    async (_thingName, command) => {
      published.push(command);
    },
    (entry) => writeEntry(entry, writes++),
  );
  return { commands, published, writes: () => writes };
}

// The audit entry is written before a command is published (issue 38 item 1); two writes may end in
// either order (on PostgreSQL they take turns on the chain's head), yet a device must receive its
// commands in the order they were sent: a setpoint after the configuration that names the channel.
describe('CommandService: one device’s commands leave in the order they were sent', () => {
  it('publishes the second command after the first, even when its audit entry is written first', async () => {
    let releaseFirst = () => {};
    const firstWritten = new Promise<void>((resolve) => (releaseFirst = resolve));
    const { commands, published, writes } = service((_entry, index) =>
      index === 0 ? firstWritten : Promise.resolve(),
    );
    const first = commands.send('ACME-BLR02', { cmd: 'writeChannel', code: 'sp1', value: 21.5 }, SENDER);
    const second = commands.send('ACME-BLR02', { cmd: 'writeRegister', register: 12, value: 3 }, SENDER);
    await until(() => writes() >= 1);
    releaseFirst();
    await until(() => published.length === 2);
    expect(published.map((command) => command.cmd)).toEqual(['writeChannel', 'writeRegister']);
    commands.cancelAll();
    expect(await Promise.all([first, second])).toEqual([{ result: 'TIMEOUT' }, { result: 'TIMEOUT' }]);
  });

  it('sends the next command when the one before it could not be recorded, and not the one refused', async () => {
    const { commands, published } = service((_entry, index) =>
      index === 0 ? Promise.reject(new Error('database gone')) : Promise.resolve(),
    );
    const refused = commands.send('ACME-BLR02', { cmd: 'writeChannel', code: 'sp1', value: 21.5 }, SENDER);
    const next = commands.send('ACME-BLR02', { cmd: 'writeRegister', register: 12, value: 3 }, SENDER);
    await expect(refused).rejects.toThrow('database gone');
    await until(() => published.length === 1);
    expect(published[0]).toMatchObject({ cmd: 'writeRegister', register: 12, value: 3 });
    commands.cancelAll();
    expect(await next).toEqual({ result: 'TIMEOUT' });
  });
});
