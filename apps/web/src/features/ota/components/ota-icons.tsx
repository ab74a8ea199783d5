import { Icon, type IconProps } from '../../../components/ui/icons';

/** A download arrow into a chip: firmware going to a device. */
export const UpdateIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M12 3v10" />
    <path d="m8 9 4 4 4-4" />
    <path d="M5 15v3a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-3" />
  </Icon>
);
