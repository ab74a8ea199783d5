import { describe, expect, it } from 'vitest';
import type { SocketLike } from '../../../lib/realtime/realtime-client';
import { SplitSocket } from './simulated-devices';

class FakeSocket implements SocketLike {
  readyState = 1;
  onopen: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  readonly sent: unknown[] = [];
  closed = false;
  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }
  close(): void {
    this.closed = true;
  }
}

function setup() {
  const remote = new FakeSocket();
  const local = new FakeSocket();
  const socket = new SplitSocket(remote, local, (thingName) => thingName.endsWith('_DEMO'));
  return { remote, local, socket };
}

describe('the real-time socket of a session with simulated devices', () => {
  it.each([
    [
      'a write to a simulated device',
      { id: '1', type: 'server/writeChannel', thingName: 'CTL01_DEMO', code: 'do1', value: 1 },
      'local',
    ],
    [
      'a write to a real device',
      { id: '2', type: 'server/writeChannel', thingName: 'ACME-BLR01', code: 'do1', value: 1 },
      'remote',
    ],
    [
      'a subscription to simulated devices only',
      { id: '3', type: 'server/subscribeDevices', thingNames: ['CTL01_DEMO'] },
      'local',
    ],
    [
      'a subscription to real devices only',
      { id: '4', type: 'server/subscribeDevices', thingNames: ['ACME-BLR01'] },
      'remote',
    ],
    ['anything else', { id: '5', type: 'server/ping' }, 'remote'],
  ])('sends %s to one side only', (_name, action, side) => {
    const { remote, local, socket } = setup();
    socket.send(JSON.stringify(action));
    expect(side === 'local' ? local.sent : remote.sent).toEqual([action]);
    expect(side === 'local' ? remote.sent : local.sent).toEqual([]);
  });

  it('splits a subscription naming both kinds, the worker’s part under an id of its own', () => {
    const { remote, local, socket } = setup();
    socket.send(JSON.stringify({ id: '7', type: 'server/subscribeDevices', thingNames: ['ACME-BLR01', 'CTL02_DEMO'] }));
    expect(remote.sent).toEqual([{ id: '7', type: 'server/subscribeDevices', thingNames: ['ACME-BLR01'] }]);
    expect(local.sent).toEqual([{ id: '7:simulated', type: 'server/subscribeDevices', thingNames: ['CTL02_DEMO'] }]);
  });

  it('hands on both sides’ frames, is as open as the server’s socket and closes both', () => {
    const { remote, local, socket } = setup();
    const received: unknown[] = [];
    socket.onmessage = (event) => received.push(event.data);
    remote.onmessage?.(new MessageEvent('message', { data: 'from the server' }));
    local.onmessage?.(new MessageEvent('message', { data: 'from the worker' }));
    expect(received).toEqual(['from the server', 'from the worker']);
    remote.readyState = 3;
    expect(socket.readyState).toBe(3);
    let closed = false;
    socket.onclose = () => (closed = true);
    remote.onclose?.({ code: 1006, reason: '' } as CloseEvent);
    expect([closed, local.closed]).toEqual([true, true]);
  });
});
