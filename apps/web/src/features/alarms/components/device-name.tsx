import { Link } from 'react-router';
import { useDeviceActionRefusal } from '../../../lib/session/use-can';

/**
 * An alarm's or alert's device: a link to its dashboard for a user who may read device data (the
 * domain's `read` row, which `GET /device` and the live feed check), else its name only. Alarms are
 * open to every user of the scope, so a user without View dashboards is not sent to a dash that
 * would refuse them (issue 35 item 2).
 */
export function DeviceName({ thingName, name }: { thingName: string; name: string }) {
  const readsDevices = useDeviceActionRefusal('read') === null;
  if (!readsDevices) return <span className="alarms-device">{name}</span>;
  return (
    <Link to={`/dash/${encodeURIComponent(thingName)}`} className="alarms-device">
      {name}
    </Link>
  );
}
