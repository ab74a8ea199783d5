import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { AppType } from '@fieldlink/domain/app-variant';
import {
  DEMO_FLEETS,
  DEMO_HISTORY_DAYS,
  MAX_DEMO_DEVICES,
  demoFleet,
  demoFleetDevices,
} from '@fieldlink/simulation/demo-fleet';
import {
  AccountsIcon,
  ChartIcon,
  DeviceIcon,
  SparkIcon,
  ThermometerIcon,
  type IconProps,
} from '../../../components/ui/icons';
import { PublicFrame } from '../../../components/ui/public-frame';
import { beginDemo, installLocalBackend } from '../../../lib/demo/demo-session';
import { endSession } from '../../../lib/session/end-session';
import { createDemoBackend } from '../backend/demo-backend';
import './demo.css';

const VARIANT_ICONS: Readonly<Record<AppType, (props: IconProps) => ReactNode>> = {
  brew: ThermometerIcon,
  filtec: ChartIcon,
  'filtec moe': ChartIcon,
  spray: SparkIcon,
  stock: AccountsIcon,
  default: DeviceIcon,
};

/**
 * `/demo` (core §2): a prospect picks an app variant and gets the real console over simulated
 * `_DEMO` devices, without an account: everything runs in this browser and nothing reaches the
 * server (core §1). The page itself makes no call either (app/start-up.ts).
 */
export function DemoPage() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const [opening, setOpening] = useState<AppType | null>(null);
  // `?devices=50`: a larger default fleet (demoFleet), for a prospect with many sites.
  const asked = Number(search.get('devices'));
  const deviceCount = Number.isInteger(asked) && asked > 0 ? Math.min(asked, MAX_DEMO_DEVICES) : undefined;

  const open = (appType: AppType) => {
    setOpening(appType);
    // A session of this tab gives way to the demo; signing in again ends the demo.
    endSession();
    beginDemo(appType, deviceCount);
    installLocalBackend(() => createDemoBackend(appType, deviceCount));
    void navigate('/loading', { replace: true });
  };

  return (
    <PublicFrame wide>
      <div className="demo-chooser">
        <div className="demo-chooser__intro">
          <div className="demo-chooser__eyebrow">Demo</div>
          <h1>Try the console with simulated devices</h1>
          <p className="fl-muted">
            Pick the kind of operation you run. The console opens over a simulated plant with {DEMO_HISTORY_DAYS} days
            of history and live values every second. It all runs in this browser: no account, nothing sent anywhere.
            What you record is kept in this browser until you reset the demo.
          </p>
        </div>
        <ul className="demo-chooser__grid">
          {DEMO_FLEETS.map((fleet) => {
            const Icon = VARIANT_ICONS[fleet.appType];
            const devices = demoFleetDevices(demoFleet(fleet.appType, deviceCount)).length;
            return (
              <li key={fleet.appType}>
                <button
                  type="button"
                  className="fl-card demo-chooser__card"
                  onClick={() => open(fleet.appType)}
                  disabled={opening !== null}
                  aria-busy={opening === fleet.appType}
                >
                  <span className="demo-chooser__icon" aria-hidden="true">
                    <Icon size={22} />
                  </span>
                  <span className="demo-chooser__title">{fleet.title}</span>
                  <span className="demo-chooser__text">{fleet.description}</span>
                  <span className="demo-chooser__meta">
                    {fleet.accountName} · {devices} devices
                  </span>
                  <span className="demo-chooser__open">{opening === fleet.appType ? 'Opening…' : 'Open demo'}</span>
                </button>
              </li>
            );
          })}
        </ul>
        <p className="demo-chooser__footer fl-muted">
          Already a customer? <Link to="/signin">Sign in</Link>
        </p>
      </div>
    </PublicFrame>
  );
}
