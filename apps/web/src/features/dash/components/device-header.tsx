import type { Account, TreeDevice } from '@fieldlink/api/account';
import type { Device } from '@fieldlink/api/device';
import { Badge } from '../../../components/ui/badge';
import { ChevronRightIcon } from '../../../components/ui/icons';
import { groupTrail } from '../../../lib/account-tree';
import { formatDateTime } from '@fieldlink/domain/date-format';
import { useDeviceConnection } from '../../../lib/realtime/use-realtime';
import { usePageClock } from '../../../lib/page-time-zone';

export interface DeviceHeaderProps {
  account: Account;
  groupId: string;
  treeDevice: TreeDevice;
  device: Device | undefined;
}

/** Name, place in the tree, connection badge and identity of the device on the dash. */
export function DeviceHeader({ account, groupId, treeDevice, device }: DeviceHeaderProps) {
  const live = useDeviceConnection(treeDevice.thingName);
  const clock = usePageClock();
  const isConnected = live?.isConnected ?? device?.isConnected ?? treeDevice.isConnected;
  const lastConnection = live?.lastConnection ?? device?.lastConnection ?? treeDevice.lastConnection;
  const lastDisconnection = live?.lastDisconnection ?? device?.lastDisconnection ?? treeDevice.lastDisconnection;
  const trail = groupTrail(account, groupId);

  const facts: { label: string; value: string }[] = [
    { label: 'Thing name', value: treeDevice.thingName },
    { label: 'Serial', value: device?.sn ?? treeDevice.sn ?? '—' },
  ];
  if (device?.model) facts.push({ label: 'Model', value: device.model });
  if (device?.fw) facts.push({ label: 'Firmware', value: device.fw });
  // The specification's rule: a connected device shows when it last dropped, a disconnected one when
  // it was last seen.
  if (isConnected && lastDisconnection)
    facts.push({ label: 'Last disconnection', value: formatDateTime(lastDisconnection, clock) });
  if (!isConnected && lastConnection)
    facts.push({ label: 'Last connection', value: formatDateTime(lastConnection, clock) });

  return (
    <section className="device-header">
      {trail.length > 0 && (
        <nav className="device-header__trail" aria-label="Group">
          {trail.map((name, index) => (
            <span key={`${name}-${index}`}>
              {index > 0 && <ChevronRightIcon size={14} />}
              {name}
            </span>
          ))}
        </nav>
      )}
      <div className="device-header__title-row">
        <h1 className="device-header__name">{device?.name ?? treeDevice.name}</h1>
        <span data-testid="device-connection">
          <Badge tone={isConnected ? 'success' : 'danger'} dot>
            {isConnected ? 'Online' : 'Offline'}
          </Badge>
        </span>
      </div>
      <dl className="device-header__facts">
        {facts.map((fact) => (
          <div key={fact.label}>
            <dt>{fact.label}</dt>
            <dd>{fact.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
