import type { TreeItemKind } from '@fieldlink/domain/tree-menu';
import { DashboardIcon, DeviceIcon, Icon, UserIcon, type IconProps } from '../../../components/ui/icons';

// The account tree's icon per item kind (specification core §3), drawn like the kit's icons: a
// 24-unit grid, stroke 2, currentColor.

export const BuildingIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 21V5a2 2 0 0 1 2-2h8a2 2 0 0 1 2 2v16M16 9h3a1 1 0 0 1 1 1v11M2.5 21h19" />
    <path d="M8 7h1M11 7h1M8 11h1M11 11h1M8 15h1M11 15h1" />
  </Icon>
);

export const FolderIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M3 7a2 2 0 0 1 2-2h4l2 2.5h8a2 2 0 0 1 2 2V18a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" />
  </Icon>
);

export const InboxIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M3 13h5l1.5 2.5h5L16 13h5" />
    <path d="M5.5 5h13L21 13v5a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-5z" />
  </Icon>
);

export const TrashIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 7h16M10 11v6M14 11v6M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12M9 7V4.5A1.5 1.5 0 0 1 10.5 3h3A1.5 1.5 0 0 1 15 4.5V7" />
  </Icon>
);

export const ShieldUserIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M12 2.5 4.5 5.5v6c0 4.6 3.2 8.4 7.5 10 4.3-1.6 7.5-5.4 7.5-10v-6z" />
    <circle cx="12" cy="10" r="2.5" />
    <path d="M8 16.5a4.5 4.5 0 0 1 8 0" />
  </Icon>
);

export const AlarmUserIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="10" cy="8" r="4" />
    <path d="M3 21a7 7 0 0 1 10.5-6" />
    <path d="M16 15.5a2.5 2.5 0 0 1 5 0c0 2.5 1 3.5 1 3.5h-7s1-1 1-3.5M17.7 21.5a1 1 0 0 0 1.6 0" />
  </Icon>
);

export const ChannelIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M3 12h4l2.5-6 5 12 2.5-6h4" />
  </Icon>
);

export const MoveIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M3 7a2 2 0 0 1 2-2h4l2 2.5h8a2 2 0 0 1 2 2V18a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" />
    <path d="M9 14h6M13 11.5l2.5 2.5-2.5 2.5" />
  </Icon>
);

export const FolderPlusIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M3 7a2 2 0 0 1 2-2h4l2 2.5h8a2 2 0 0 1 2 2V18a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" />
    <path d="M12 11v6M9 14h6" />
  </Icon>
);

export const UserPlusIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="9" cy="8" r="4" />
    <path d="M2 21a7 7 0 0 1 14 0M19 8v6M16 11h6" />
  </Icon>
);

export const MoreIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="5" cy="12" r="1" fill="currentColor" />
    <circle cx="12" cy="12" r="1" fill="currentColor" />
    <circle cx="19" cy="12" r="1" fill="currentColor" />
  </Icon>
);

export const PencilIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 20h4L19 9a2.8 2.8 0 0 0-4-4L4 16z" />
    <path d="m13.5 6.5 4 4" />
  </Icon>
);

export const ExpandAllIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="m7 15 5 5 5-5M7 9l5-5 5 5" />
  </Icon>
);

export const CollapseAllIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="m7 20 5-5 5 5M7 4l5 5 5-5" />
  </Icon>
);

/** The icon of a tree item kind; devices carry their connection state in colour (see accounts.css). */
export function TreeItemIcon({ kind, size = 18 }: { kind: TreeItemKind; size?: number }) {
  switch (kind) {
    case 'rootGroup':
      return <BuildingIcon size={size} />;
    case 'group':
      return <FolderIcon size={size} />;
    case 'newDevicesGroup':
      return <InboxIcon size={size} />;
    case 'trashGroup':
      return <TrashIcon size={size} />;
    case 'device':
    case 'deviceConnected':
    case 'deviceDisconnected':
      return <DeviceIcon size={size} />;
    case 'user':
      return <UserIcon size={size} />;
    case 'adminUser':
      return <ShieldUserIcon size={size} />;
    case 'alarmUser':
      return <AlarmUserIcon size={size} />;
    case 'scene':
      return <DashboardIcon size={size} />;
    case 'channel':
      return <ChannelIcon size={size} />;
  }
}

/** Words for each kind, for screen readers and tooltips. */
export const TREE_ITEM_KIND_LABELS: Record<TreeItemKind, string> = {
  rootGroup: 'Account',
  group: 'Group',
  newDevicesGroup: 'New devices',
  trashGroup: 'Trash',
  device: 'Device',
  deviceConnected: 'Device, online',
  deviceDisconnected: 'Device, offline',
  user: 'User',
  adminUser: 'Administrator',
  alarmUser: 'Alarm responder',
  scene: 'Dashboard',
  channel: 'Channel',
};
