import { AccountsTreePage } from '../features/accounts/components/accounts-tree-page';
import { TreeAddDevicesDialog } from '../features/devices/components/add-devices-buttons';

/**
 * `/accounts/treeview`: the account tree, whose group menus add devices with the devices feature's
 * dialog. Composed here because features do not import each other.
 */
export function AccountsTreeRoute() {
  return <AccountsTreePage addDevices={(place, onClose) => <TreeAddDevicesDialog place={place} onClose={onClose} />} />;
}
