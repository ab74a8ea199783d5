import type { Device } from '@fieldlink/api/device';
import type { DeviceHealth } from '@fieldlink/api/device-frames';
import { SignalIcon } from '../../../components/ui/icons';
import { useDeviceHealth } from '../../../lib/realtime/use-realtime';

/** Modem and network facts: the device's communication ports and the network side of its health. */
export function CellularDetails({ device }: { device: Device }) {
  const live = useDeviceHealth(device.thingName);
  const health: DeviceHealth | null = live ?? device.health;
  const modem = device.ports.find((port) => port.portType === 'modem') ?? device.ports[0];
  const facts: [string, string | number | undefined][] = [
    ['Network', health?.networkInterface],
    ['Operator', modem?.operator],
    ['Network type', modem?.netType],
    ['Band', modem?.band],
    ['APN', modem?.cellApn],
    ['Signal', health?.signal === undefined ? undefined : `${health.signal} dBm`],
    ['Signal quality', health?.signalQuality],
    ['Modem', [modem?.model, modem?.modemFw].filter(Boolean).join(' · ') || undefined],
    ['ICCID', modem?.iccid],
    ['IMEI', modem?.imei],
    ['Network connects', health?.networkConnects],
    ['MQTT connects', health?.mqttConnects],
    ['Port 1 resets', health?.port1Resets],
  ];
  const shown = facts.filter(([, value]) => value !== undefined && value !== '');
  return (
    <section className="dash-card fl-card" aria-labelledby="cellular-heading">
      <h2 id="cellular-heading" className="dash-card__title">
        <SignalIcon size={16} /> Cellular and network
      </h2>
      {shown.length === 0 ? (
        <p className="dash-card__empty">The device has not reported its network yet.</p>
      ) : (
        <dl className="dash-facts">
          {shown.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
