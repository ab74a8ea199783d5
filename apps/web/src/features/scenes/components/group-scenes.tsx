import type { Account, GroupNode } from '@fieldlink/api/account';
import { deviceActionRefusal } from '@fieldlink/domain/device-actions';
import { can } from '@fieldlink/domain/permissions';
import { widgetRole } from '@fieldlink/domain/widgets';
import { RefusalNote } from '../../../components/ui/refusal-note';
import { useGroupScenes } from '../hooks/use-group-scenes';
import { useSceneDialog } from '../hooks/use-scene-dialog';
import type { SceneContext } from '../hooks/use-scene-context';
import { sceneRights } from '../model/scene-rights';
import { SceneBody, SceneDialogs, SceneHeader } from './scene-page-parts';
import { SceneTabs } from './scene-tabs';

/**
 * A group's scenes: its trail and title, the scene tabs and the shown scene, each control offered
 * as far as the caller's rights go ({@link sceneRights}), with the calls in {@link useGroupScenes}.
 */
export function GroupScenes({
  context,
  tree,
  group,
  sceneId,
}: {
  context: SceneContext;
  /** The tree the group was found in (its own account's, or a supplier's above it). */
  tree: Account;
  group: GroupNode;
  sceneId: string | undefined;
}) {
  const { subject, devices, accounts } = context;
  const viewDashboard = can(subject, 'viewDashboard');
  const data = useGroupScenes({ group, sceneId, devices, viewDashboard });
  const { scenes, scene } = data;
  const rights = sceneRights(subject, tree, group, scene);
  const dialogs = useSceneDialog();

  return (
    <div className="scene-page">
      <SceneHeader tree={tree} group={group} scene={scene} rights={rights} data={data} dialogs={dialogs} />
      <RefusalNote reason={rights.readOnlyReason} testId="scene-read-only" />
      {viewDashboard && scene?.widgets.some((widget) => widgetRole(widget.type) === 'CONTROL') && (
        <RefusalNote reason={deviceActionRefusal(subject, 'writeChannel')} />
      )}
      {scenes && scenes.length > 0 && (
        <SceneTabs
          accountId={group.accountId}
          groupId={group.id}
          scenes={scenes}
          currentId={scene?.id ?? null}
          canAdd={rights.canAddScene}
          canEdit={rights.canEditScene}
          onAdd={dialogs.addScene}
          onRename={dialogs.renameScene}
          onDelete={dialogs.deleteScene}
          onMove={data.moveScene}
        />
      )}
      <SceneBody group={group} devices={devices} rights={rights} data={data} dialogs={dialogs} />
      <SceneDialogs
        accountId={group.accountId}
        scene={scene}
        accounts={accounts}
        devices={devices}
        data={data}
        dialogs={dialogs}
      />
    </div>
  );
}
