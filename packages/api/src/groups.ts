import { Type, type Static } from '@sinclair/typebox';
import { MAX_GROUP_NAME_LENGTH, MOVABLE_NODE_TYPES } from '@fieldlink/domain/account-tree';
import { EntityId } from './fields';

/** Group and move calls of core §7. */

const GroupName = Type.String({ minLength: 1, maxLength: MAX_GROUP_NAME_LENGTH + 20 });

/** `POST /group`: add a subgroup. */
export const AddGroupBody = Type.Object({ parentId: EntityId, name: GroupName }, { additionalProperties: false });
export type AddGroupBody = Static<typeof AddGroupBody>;

/** A group as add and rename answer it. */
export const GroupSummary = Type.Object({
  id: Type.String(),
  name: Type.String(),
  accountId: Type.String(),
  parentId: Type.Union([Type.String(), Type.Null()]),
  path: Type.String(),
});
export type GroupSummary = Static<typeof GroupSummary>;

/** `PUT /group`: rename. */
export const RenameGroupBody = Type.Object({ id: EntityId, name: GroupName }, { additionalProperties: false });
export type RenameGroupBody = Static<typeof RenameGroupBody>;

/** `DELETE /group`. */
export const DeleteGroupBody = Type.Object({ id: EntityId }, { additionalProperties: false });
export type DeleteGroupBody = Static<typeof DeleteGroupBody>;

/** What deleting a group did: its devices, and its subgroups' devices, went to the account's Trash. */
export const DeleteGroupAnswer = Type.Object({
  deletedGroupIds: Type.Array(Type.String()),
  trashGroupId: Type.String(),
  devicesMovedToTrash: Type.Array(Type.String()),
  invitationsCancelled: Type.Array(Type.String()),
});
export type DeleteGroupAnswer = Static<typeof DeleteGroupAnswer>;

/** `POST /move`: a user (by e-mail), device or group from one group to another. */
export const MoveBody = Type.Object(
  {
    type: Type.Union(MOVABLE_NODE_TYPES.map((type) => Type.Literal(type))),
    /** Device or group id; a user's e-mail. */
    id: Type.String({ minLength: 1, maxLength: 254 }),
    sourceGroupId: EntityId,
    destinationGroupId: EntityId,
  },
  { additionalProperties: false },
);
export type MoveBody = Static<typeof MoveBody>;

export const MoveAnswer = Type.Object({
  type: Type.Union(MOVABLE_NODE_TYPES.map((type) => Type.Literal(type))),
  id: Type.String(),
  /** Group path of the entity after the move. */
  path: Type.String(),
});
export type MoveAnswer = Static<typeof MoveAnswer>;
