import { Link, useParams } from 'react-router';
import type { Account, GroupNode } from '@fieldlink/api/account';
import { Button } from '../../../components/ui/button';
import { DashboardIcon } from '../../../components/ui/icons';
import { PanelMessage } from '../../../components/ui/panel-message';
import { serverErrorMessage } from '../../../lib/api-client';
import { useSceneContext } from '../hooks/use-scene-context';
import { GroupScenes } from './group-scenes';
import { SceneSkeleton } from './scene-page-parts';
import './scenes.css';

/** `/dash/:accountId/:groupId(/:sceneId)`: a group's scene dashboards (application spec §2). */
export function SceneDashPage() {
  const { accountId = '', groupId = '', sceneId } = useParams();
  const context = useSceneContext();

  if (context.status === 'pending') return <SceneSkeleton />;
  if (context.status === 'error') {
    return (
      <PanelMessage
        title="Could not read your account"
        actions={
          <Button variant="primary" onClick={context.retry}>
            Try again
          </Button>
        }
      >
        {serverErrorMessage(context.error)}
      </PanelMessage>
    );
  }
  const found = findSceneGroup(context.accounts, accountId, groupId);
  if (!found) {
    return (
      <PanelMessage
        icon={<DashboardIcon size={26} />}
        title="Dashboard not found"
        actions={
          <Link to="/dash" className="fl-button fl-button--primary">
            Open the device list
          </Link>
        }
      >
        This group does not exist, or it is not one of yours.
      </PanelMessage>
    );
  }
  return (
    <GroupScenes
      key={`${accountId}/${groupId}`}
      context={context}
      tree={found.tree}
      group={found.group}
      sceneId={sceneId}
    />
  );
}

/**
 * The group of a scene route and the tree it was found in. A supplier's tree holds its customers'
 * accounts as groups, so the group is looked for, by its own account id, in every tree.
 */
function findSceneGroup(accounts: readonly Account[], accountId: string, groupId: string) {
  const find = (group: GroupNode): GroupNode | null => {
    if (group.id === groupId) return group;
    for (const child of group.groups) {
      const found = find(child);
      if (found) return found;
    }
    return null;
  };
  for (const tree of accounts) {
    const group = find(tree.rootGroup);
    if (group && group.accountId === accountId) return { tree, group };
  }
  return null;
}
