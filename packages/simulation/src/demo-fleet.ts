import type { AppType } from '@fieldlink/domain/app-variant';
import { DEMO_ACCOUNT_KIND, DEMO_DEVICE_SUFFIX } from '@fieldlink/domain/demo';
import { DAY_MS } from '@fieldlink/domain/timestamps';
import { ACCOUNTS_USER_VARIANT } from '@fieldlink/domain/user-variant';
import type { DeviceKind } from './device-kind';

/**
 * The demo fleets (core §1 "Demo device ids end with _DEMO"): one simulated plant per app variant,
 * run in the prospect's browser by /demo and by the server's demo accounts alike. Every device id and
 * thing name ends with `_DEMO`; its plant model is seeded from the thing name, so the same device
 * shows the same plant wherever it runs.
 */

export interface DemoFleetDevice {
  readonly thingName: string;
  readonly name: string;
  readonly kind: DeviceKind;
  readonly site: string;
  readonly location: { readonly lat: number; readonly lng: number; readonly address: string };
  /** Its tags: a water plant's configuration tag names the plant's features (application §3). */
  readonly tags: readonly { readonly key: string; readonly value: string }[];
}

export interface DemoFleetGroup {
  readonly name: string;
  readonly devices: readonly DemoFleetDevice[];
}

export interface DemoFleet {
  readonly appType: AppType;
  /** What the variant chooser calls it. */
  readonly title: string;
  readonly description: string;
  /** The account the prospect looks at. */
  readonly accountName: string;
  readonly groups: readonly DemoFleetGroup[];
}

const device = (
  code: string,
  name: string,
  kind: DeviceKind,
  site: string,
  [lat, lng]: readonly [number, number],
  address: string,
): DemoFleetDevice => ({
  thingName: `${code}${DEMO_DEVICE_SUFFIX}`,
  name,
  kind,
  site,
  location: { lat, lng, address },
  tags: [],
});

/** A water plant with the features its configuration tag turns on. */
const plant = (demo: DemoFleetDevice, key: 'filtecConfig' | 'filtecMoeConfig', features: string): DemoFleetDevice => ({
  ...demo,
  tags: [{ key, value: features }],
});

/** A brewery device with the vessel it watches (its `vessel` tag: only fermentation vessels are tanks). */
const vessel = (demo: DemoFleetDevice, value: string): DemoFleetDevice => ({
  ...demo,
  tags: [{ key: 'vessel', value }],
});

/** The fleets, in the order the chooser offers them. */
export const DEMO_FLEETS: readonly DemoFleet[] = [
  {
    appType: 'brew',
    title: 'Brewery',
    description: 'Fermenters with live gravity estimates, batches, tasting notes and a bright tank.',
    accountName: 'Northgate Brewing',
    groups: [
      {
        name: 'Cellar',
        devices: [
          vessel(
            device('FV01', 'Fermenter FV1', 'brewTank', 'Cellar', [32.8998, -97.0403], '2600 Cellar Rd, Irving, TX'),
            'fermenter',
          ),
          vessel(
            device('FV02', 'Fermenter FV2', 'brewTank', 'Cellar', [32.8999, -97.0401], '2600 Cellar Rd, Irving, TX'),
            'fermenter',
          ),
          vessel(
            device('BT01', 'Bright tank BT1', 'brewTank', 'Cellar', [32.9001, -97.0399], '2600 Cellar Rd, Irving, TX'),
            'bright tank',
          ),
        ],
      },
      {
        name: 'Brewhouse',
        devices: [
          vessel(
            device(
              'HLT01',
              'Hot liquor tank',
              'generic',
              'Brewhouse',
              [32.9003, -97.0398],
              '2600 Cellar Rd, Irving, TX',
            ),
            'hot liquor tank',
          ),
        ],
      },
    ],
  },
  {
    appType: 'filtec',
    title: 'Water plant (Filtec)',
    description: 'Treatment plants with flows, pressures, tank levels, UV dose and their alarms.',
    accountName: 'Filtec Water',
    groups: [
      {
        name: 'Treatment plants',
        devices: [
          plant(
            device(
              'WTP01',
              'Riverside plant',
              'waterPlant',
              'Riverside',
              [32.7357, -97.1081],
              '100 River Legacy Pkwy, Arlington, TX',
            ),
            'filtecConfig',
            'waterTank,flowmeter2,borePressure,preTreatment,media,carbon,chlorination,uvOutletSolenoid',
          ),
          plant(
            device(
              'WTP02',
              'Hilltop plant',
              'waterPlant',
              'Hilltop',
              [32.7555, -97.3308],
              '200 Summit Ave, Fort Worth, TX',
            ),
            'filtecConfig',
            'waterTank,communityFlowmeter,secondaryTreated,media,filter3,media4,softener,greensand,chlorination,uvSignalPoints2',
          ),
        ],
      },
    ],
  },
  {
    appType: 'filtec moe',
    title: 'Water plant (Filtec MOE)',
    description: 'A township water supply: bores, treatment, storage and community flow.',
    accountName: 'Moe Township Water',
    groups: [
      {
        name: 'Township supply',
        devices: [
          plant(
            device('MOE01', 'Moe treatment plant', 'waterPlant', 'Moe', [32.9412, -96.8335], '1 Township Rd, Moe, TX'),
            'filtecMoeConfig',
            'waterTank,media,carbon,softener',
          ),
          plant(
            device('MOE02', 'North bore', 'waterPlant', 'Moe', [32.9511, -96.8401], '40 Bore Ln, Moe, TX'),
            'filtecMoeConfig',
            'borePressure,preTreatment,chlorination',
          ),
        ],
      },
    ],
  },
  {
    appType: 'spray',
    title: 'Spray operation',
    description: 'Orchard sprayers with schedules, tank levels, wind lockout and broadcast spray.',
    accountName: 'Orchard Spray Co',
    groups: [
      {
        name: 'North Block',
        devices: [
          device('SPR01', 'Sprayer Row 1', 'sprayer', 'North Block', [33.2148, -97.1331], 'Orchard Ln, Denton, TX'),
          device('SPR02', 'Sprayer Row 2', 'sprayer', 'North Block', [33.2151, -97.1327], 'Orchard Ln, Denton, TX'),
        ],
      },
      {
        name: 'South Block',
        devices: [
          device('SPR03', 'Sprayer Row 3', 'sprayer', 'South Block', [33.2102, -97.1299], 'Orchard Ln, Denton, TX'),
          device('PUMP01', 'Pump house', 'generic', 'South Block', [33.2099, -97.1301], 'Orchard Ln, Denton, TX'),
        ],
      },
    ],
  },
  {
    appType: 'stock',
    title: 'Retail stores',
    description: 'Smart shelves counting stock in three stores, with lost sales and store ratings.',
    accountName: 'Corner Retail',
    groups: [
      {
        name: 'Dallas Uptown',
        devices: [
          device(
            'SHF01',
            'Drinks shelf',
            'retailShelf',
            'Dallas Uptown',
            [32.7997, -96.8019],
            '2500 McKinney Ave, Dallas, TX',
          ),
          device(
            'SHF02',
            'Snacks shelf',
            'retailShelf',
            'Dallas Uptown',
            [32.7999, -96.8017],
            '2500 McKinney Ave, Dallas, TX',
          ),
        ],
      },
      {
        name: 'Plano West',
        devices: [
          device(
            'SHF03',
            'Drinks shelf',
            'retailShelf',
            'Plano West',
            [33.0198, -96.8303],
            '5800 W Park Blvd, Plano, TX',
          ),
        ],
      },
    ],
  },
  {
    appType: 'default',
    title: 'Controllers (default app)',
    description: 'General-purpose controllers: temperatures, setpoints, relays, charts and alarms.',
    accountName: 'Acme Controls',
    groups: [
      {
        name: 'Plant room',
        devices: [
          device(
            'CTL01',
            'Boiler controller',
            'generic',
            'Plant room',
            [32.7767, -96.797],
            '1500 Marilla St, Dallas, TX',
          ),
          device(
            'CTL02',
            'Chiller controller',
            'generic',
            'Plant room',
            [32.7769, -96.7968],
            '1500 Marilla St, Dallas, TX',
          ),
        ],
      },
      {
        name: 'Cold store',
        devices: [
          device('CTL03', 'Cold room 1', 'generic', 'Cold store', [32.7781, -96.8012], '300 Reunion Blvd, Dallas, TX'),
        ],
      },
    ],
  },
];

/** Controllers per site of a larger default fleet. */
const CONTROLLERS_PER_SITE = 10;
/** Most devices a demo fleet may be asked for. */
export const MAX_DEMO_DEVICES = 200;

/**
 * Days of history a demo fleet shows at once (issue 19: at least 30): the server seeds them by default,
 * and a simulated device in the browser has been running since that many days before its demo began.
 */
export const DEMO_HISTORY_DAYS = 30;

/** {@link DEMO_HISTORY_DAYS} in milliseconds: how long before its demo began a simulated device started. */
export const DEMO_HISTORY_MS = DEMO_HISTORY_DAYS * DAY_MS;

/**
 * The fleet of an app variant. The default app's can be asked for more controllers (`deviceCount`,
 * up to 200, ten to a site): a prospect with a large estate, or a benchmark of the browser's load.
 */
export function demoFleet(appType: AppType, deviceCount?: number): DemoFleet {
  const fleet = DEMO_FLEETS.find((entry) => entry.appType === appType) ?? DEMO_FLEETS[DEMO_FLEETS.length - 1]!;
  const count = Math.min(Math.floor(deviceCount ?? 0), MAX_DEMO_DEVICES);
  if (fleet.appType !== 'default' || count <= demoFleetDevices(fleet).length) return fleet;
  const sites = Math.ceil(count / CONTROLLERS_PER_SITE);
  return {
    ...fleet,
    groups: Array.from({ length: sites }, (_, site) => ({
      name: `Site ${site + 1}`,
      devices: Array.from(
        { length: Math.min(CONTROLLERS_PER_SITE, count - site * CONTROLLERS_PER_SITE) },
        (_, index) => {
          const number = site * CONTROLLERS_PER_SITE + index + 1;
          return device(
            `CTL${String(number).padStart(3, '0')}`,
            `Controller ${number}`,
            'generic',
            `Site ${site + 1}`,
            [32.7767 + site * 0.01, -96.797 + index * 0.001],
            `${100 + number} Commerce St, Dallas, TX`,
          );
        },
      ),
    })),
  };
}

/** The account a demo fleet runs in. */
interface DemoFleetAccount {
  name: string;
  appType: AppType;
  kind: typeof DEMO_ACCOUNT_KIND;
  userVariant: string | null;
  theme: null;
}

/**
 * The account a fleet runs in (core §1), for the browser demo and the server's seeded demo account:
 * of kind `demo`, no theme, the accounts-centred user variant for the retail stores (their new-devices
 * group is New Stock), none for the others.
 */
export function demoFleetAccount(fleet: DemoFleet): DemoFleetAccount {
  const userVariant = fleet.appType === 'stock' ? ACCOUNTS_USER_VARIANT : null;
  return { name: fleet.accountName, appType: fleet.appType, kind: DEMO_ACCOUNT_KIND, userVariant, theme: null };
}

/** Every device of a fleet, group by group. */
export function demoFleetDevices(fleet: DemoFleet): DemoFleetDevice[] {
  return fleet.groups.flatMap((group) => group.devices);
}

/**
 * The fleet device of a thing name, in any variant: a demo account on the server holds these devices,
 * and the browser that shows them simulates each with its own plant. Null for any other thing name.
 */
export function demoFleetDeviceNamed(thingName: string): DemoFleetDevice | null {
  for (const fleet of DEMO_FLEETS) {
    const found = demoFleetDevices(fleet).find((device) => device.thingName === thingName);
    if (found) return found;
  }
  return null;
}
