import { Menu, type MenuItem } from '../../../components/ui/menu';

export type SceneMenuItem = MenuItem;

/** The scene page's menus open under their button; the menu itself is the kit's. */
export function SceneMenu({
  anchor,
  ...props
}: {
  anchor: HTMLElement;
  label: string;
  items: readonly MenuItem[];
  onClose: () => void;
}) {
  return <Menu place={anchor} {...props} />;
}
