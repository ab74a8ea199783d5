import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { ChevronRightIcon, DeviceIcon, SearchIcon } from '../../../components/ui/icons';
import { PanelMessage } from '../../../components/ui/panel-message';
import { groupTrail, listDevices } from '../../../lib/account-tree';
import { serverErrorMessage } from '../../../lib/api-client';
import { useAccount } from '../../../lib/api/get-account';
import { useDeviceConnection } from '../../../lib/realtime/use-realtime';
import './dash.css';

/** `/dash`: the account's devices, to pick one to watch. */
export function DevicePickerPage() {
  const account = useAccount();
  const [search, setSearch] = useState('');
  const rows = useMemo(() => {
    if (!account.data) return [];
    return listDevices(account.data.accounts).map((placed) => ({
      ...placed,
      trail: groupTrail(placed.account, placed.group.id).join(' / '),
    }));
  }, [account.data]);
  const query = search.trim().toLowerCase();
  const shown = query
    ? rows.filter(({ device, trail }) =>
        [device.name, device.thingName, device.sn ?? '', trail].some((text) => text.toLowerCase().includes(query)),
      )
    : rows;

  if (account.isPending) {
    return (
      <div className="picker" role="status" aria-label="Loading devices">
        {Array.from({ length: 5 }, (_, i) => (
          <div key={i} className="fl-skeleton" style={{ height: 58, marginBottom: 8 }} />
        ))}
      </div>
    );
  }
  if (account.isError) {
    return <PanelMessage title="Could not read your account">{serverErrorMessage(account.error)}</PanelMessage>;
  }
  if (rows.length === 0) {
    return (
      <PanelMessage icon={<DeviceIcon size={26} />} title="No devices yet">
        Devices appear here once they are added to one of your groups.
      </PanelMessage>
    );
  }

  return (
    <div className="picker">
      <div className="picker__head">
        <div>
          <h1>Devices</h1>
          <p className="fl-muted">Choose a device to see its live values.</p>
        </div>
        <label className="picker__search">
          <SearchIcon size={16} />
          <span className="fl-visually-hidden">Search devices</span>
          <input
            type="search"
            placeholder="Search name, thing name, serial, group"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </label>
      </div>
      <ul className="picker__list fl-card">
        {shown.map(({ device, trail }) => (
          <li key={device.id}>
            <Link to={`/dash/${encodeURIComponent(device.thingName)}`} className="picker__row">
              <span className="picker__icon">
                <DeviceIcon size={18} />
              </span>
              <span className="picker__main">
                <span className="picker__name">{device.name}</span>
                <span className="picker__meta">
                  <span className="fl-mono">{device.thingName}</span>
                  {trail && <span>{trail}</span>}
                </span>
              </span>
              <ConnectionBadge thingName={device.thingName} fallback={device.isConnected} />
              <ChevronRightIcon size={16} className="picker__chevron" />
            </Link>
          </li>
        ))}
        {shown.length === 0 && <li className="picker__none">No device matches “{search.trim()}”.</li>}
      </ul>
    </div>
  );
}

function ConnectionBadge({ thingName, fallback }: { thingName: string; fallback: boolean }) {
  const live = useDeviceConnection(thingName);
  const isConnected = live?.isConnected ?? fallback;
  return (
    <Badge tone={isConnected ? 'success' : 'danger'} dot>
      {isConnected ? 'Online' : 'Offline'}
    </Badge>
  );
}
