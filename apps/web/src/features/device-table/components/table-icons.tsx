// Icons only the device table uses, drawn in the kit's icon shell at 16 px.
import { Icon, type IconProps } from '../../../components/ui/icons';

export const FilterIcon = (p: IconProps) => (
  <Icon size={16} {...p}>
    <path d="M3 5h18l-7 8.5V19l-4 2v-7.5z" />
  </Icon>
);

export const ColumnsIcon = (p: IconProps) => (
  <Icon size={16} {...p}>
    <rect x="3" y="4" width="18" height="16" rx="2" />
    <path d="M9 4v16M15 4v16" />
  </Icon>
);

export const DownloadIcon = (p: IconProps) => (
  <Icon size={16} {...p}>
    <path d="M12 3v12m0 0-4.5-4.5M12 15l4.5-4.5M4 17v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2" />
  </Icon>
);

export const ArrowUpIcon = (p: IconProps) => (
  <Icon size={16} {...p}>
    <path d="M12 19V5m0 0-6 6m6-6 6 6" />
  </Icon>
);

export const ArrowDownIcon = (p: IconProps) => (
  <Icon size={16} {...p}>
    <path d="M12 5v14m0 0-6-6m6 6 6-6" />
  </Icon>
);

export const SortableIcon = (p: IconProps) => (
  <Icon size={16} {...p}>
    <path d="m7 9 5-5 5 5M7 15l5 5 5-5" />
  </Icon>
);
