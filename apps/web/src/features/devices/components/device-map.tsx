import { useEffect, useRef } from 'react';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { mapView, markerColour } from '@fieldlink/domain/device-panel';

/** A device as the map shows it. */
export interface MapDevice {
  thingName: string;
  name: string;
  sn: string | null;
  isConnected: boolean;
  location: { lat: number; lng: number } | null;
}

export interface DeviceMapProps {
  devices: readonly MapDevice[];
  tileUrl: string;
  mapKey: string | null;
}

/** The tile template with the key: as `{key}` where the template has it, else as a `key` query parameter. */
export function tileTemplate(tileUrl: string, mapKey: string | null): string {
  if (!mapKey || tileUrl.includes('{key}')) return tileUrl;
  return `${tileUrl}${tileUrl.includes('?') ? '&' : '?'}key=${encodeURIComponent(mapKey)}`;
}

function markerIcon(isConnected: boolean): L.DivIcon {
  const colour = markerColour(isConnected);
  return L.divIcon({
    className: `device-marker device-marker--${colour}`,
    html: '<span class="device-marker__pin"></span>',
    iconSize: [26, 34],
    iconAnchor: [13, 32],
    popupAnchor: [0, -28],
  });
}

/** Popup text: built as DOM text, never HTML, so a device named `<img onerror>` stays inert. */
function popupContent(device: MapDevice): HTMLElement {
  const root = document.createElement('div');
  root.className = 'device-marker__popup';
  const name = document.createElement('strong');
  name.textContent = device.name;
  const serial = document.createElement('span');
  serial.textContent = `Serial Number: ${device.sn ?? '—'}`;
  root.append(name, serial);
  return root;
}

/**
 * The device map (core §2), loaded only where a tile source is configured: green markers for
 * connected devices, red for the others, a popup with Name and Serial Number; zoom 10 on a single
 * marker, else zoom 1 around the default centre.
 */
export function DeviceMap({ devices, tileUrl, mapKey }: DeviceMapProps) {
  const element = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const layer = useRef<L.LayerGroup | null>(null);
  const placed = devices.filter((device) => device.location !== null);
  const viewKey = placed
    .map((device) => `${device.thingName}@${device.location!.lat},${device.location!.lng}`)
    .join('|');

  useEffect(() => {
    if (!element.current) return;
    const instance = L.map(element.current, { zoomControl: true, attributionControl: true, worldCopyJump: true });
    L.tileLayer(tileTemplate(tileUrl, mapKey), { maxZoom: 19, key: mapKey ?? '' } as L.TileLayerOptions).addTo(
      instance,
    );
    layer.current = L.layerGroup().addTo(instance);
    map.current = instance;
    // The container may still be laying out when Leaflet measures it.
    const resize = new ResizeObserver(() => instance.invalidateSize());
    resize.observe(element.current);
    return () => {
      resize.disconnect();
      instance.remove();
      map.current = null;
    };
  }, [tileUrl, mapKey]);

  useEffect(() => {
    const instance = map.current;
    const group = layer.current;
    if (!instance || !group) return;
    group.clearLayers();
    for (const device of placed) {
      L.marker([device.location!.lat, device.location!.lng], {
        icon: markerIcon(device.isConnected),
        title: device.name,
        alt: `${device.name} (${device.isConnected ? 'connected' : 'disconnected'})`,
      })
        .bindPopup(popupContent(device))
        .addTo(group);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- placed is derived from viewKey and the flags below
  }, [viewKey, placed.map((device) => device.isConnected).join(','), placed.map((d) => `${d.name}|${d.sn}`).join(',')]);

  useEffect(() => {
    const view = mapView(placed.map((device) => device.location!));
    map.current?.setView([view.center.lat, view.center.lng], view.zoom);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a moved or added marker re-centres the map
  }, [viewKey]);

  return <div ref={element} className="device-map" data-testid="device-map" role="region" aria-label="Device map" />;
}
