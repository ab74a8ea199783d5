import { Type, type Static } from '@sinclair/typebox';
import { GRID_BREAKPOINTS, WIDGET_TYPES } from '@fieldlink/domain/widgets';
import { EntityId } from './fields';
import { errorAnswers } from './errors';
import { apiRoute } from './routes';

/**
 * Scene and widget calls (application spec §7 "Scenes and widgets"). Scenes belong to a group; a
 * scene or widget is named by its pipe-separated path (`{groupId}|scene:{id}|widget:{id}`).
 * `GET /scenes` is ours (the specification does not show how scenes are read).
 */

const Path = Type.String({ minLength: 1, maxLength: 200 });
const Name = Type.String({ maxLength: 120 });
/**
 * A widget colour: blank (the default), a hex colour, a colour name, or rgb()/rgba()/hsl()/hsla() of
 * numbers. Nothing else: `url(...)` or `var(...)` would let one user's widget make every viewer's
 * browser fetch an outside address or read the page's own variables.
 */
const Colour = Type.String({
  maxLength: 40,
  pattern: '^\\s*(#[0-9a-fA-F]{3,8}|[a-zA-Z]{1,30}|(rgba?|hsla?)\\([0-9.,%\\s/+-]*\\))?\\s*$',
});

export const WidgetTypeSchema = Type.Union(WIDGET_TYPES.map((type) => Type.Literal(type)));

export const WidgetChannel = Type.Object(
  {
    deviceId: EntityId,
    code: Type.String({ minLength: 1, maxLength: 16 }),
    name: Type.Optional(Name),
    legendVisibility: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type WidgetChannel = Static<typeof WidgetChannel>;

export const ArcSegment = Type.Object(
  { endValue: Type.Number(), color: Colour, text: Type.Optional(Type.String({ maxLength: 60 })) },
  { additionalProperties: false },
);
export type ArcSegment = Static<typeof ArcSegment>;

/** A chart y axis: the channels it carries (`{deviceId}:{code}`), dedicated or shared, fixed range or not. */
export const YAxis = Type.Object(
  {
    channels: Type.Array(Type.String({ maxLength: 90 }), { maxItems: 32 }),
    name: Name,
    units: Type.String({ maxLength: 20 }),
    isDedicated: Type.Boolean(),
    hasFixRange: Type.Boolean(),
    min: Type.Optional(Type.Number()),
    max: Type.Optional(Type.Number()),
  },
  { additionalProperties: false },
);
export type YAxis = Static<typeof YAxis>;

/** A chart annotation: a plot line at a time, or a note on a channel. */
export const Annotation = Type.Object(
  {
    kind: Type.Union([Type.Literal('plotLine'), Type.Literal('channel')]),
    text: Type.String({ maxLength: 200 }),
    timestamp: Type.Number({ description: 'unix milliseconds' }),
    color: Type.Optional(Colour),
    channel: Type.Optional(Type.Object({ code: Type.String({ maxLength: 16 }), deviceId: EntityId })),
  },
  { additionalProperties: false },
);
export type Annotation = Static<typeof Annotation>;

/** The fields a user sets on a widget. */
const widgetFields = {
  name: Name,
  doesInheritName: Type.Boolean(),
  type: WidgetTypeSchema,
  channels: Type.Array(WidgetChannel, { maxItems: 32 }),
  color: Type.Optional(Colour),
  backgroundColor: Type.Optional(Colour),
  arcSegments: Type.Array(ArcSegment, { maxItems: 12 }),
  min: Type.Number(),
  max: Type.Number(),
  switchColors: Type.Boolean(),
  activeColor: Colour,
  inactiveColor: Colour,
  increment: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
  units: Type.Optional(Type.String({ maxLength: 20 })),
  annotations: Type.Array(Annotation, { maxItems: 200 }),
  yAxis: Type.Array(YAxis, { maxItems: 8 }),
  /** Custom text widgets keep their text here; other widgets may keep a display value. */
  value: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Number(), Type.Null()])),
  isAlertMode: Type.Optional(Type.Boolean()),
  /**
   * A control widget's commands are sent without the confirmation every command has by default
   * (issue 36 item 1): for outputs that are safe to toggle. Absent means false. Generated plant
   * dashboards confirm whatever it says.
   */
  noConfirmation: Type.Optional(Type.Boolean()),
  /** The widget's size at lg in grid columns and rows (§3 `size`); the type's default when not given. */
  size: Type.Optional(
    Type.Object(
      { w: Type.Integer({ minimum: 1, maximum: 12 }), h: Type.Integer({ minimum: 1, maximum: 200 }) },
      { additionalProperties: false },
    ),
  ),
};

export const Widget = Type.Object({
  id: Type.String(),
  ...widgetFields,
  path: Type.String(),
  groupId: Type.String(),
  sceneId: Type.String(),
});
export type Widget = Static<typeof Widget>;

export const GridItem = Type.Object(
  {
    i: Type.String({ maxLength: 64 }),
    x: Type.Integer({ minimum: 0, maximum: 12 }),
    y: Type.Integer({ minimum: 0, maximum: 100000 }),
    w: Type.Integer({ minimum: 1, maximum: 12 }),
    h: Type.Integer({ minimum: 1, maximum: 200 }),
    minH: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
    minW: Type.Optional(Type.Integer({ minimum: 1, maximum: 12 })),
    static: Type.Optional(Type.Boolean()),
    moved: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type GridItem = Static<typeof GridItem>;

/** Grid layout per breakpoint (lg 12, md 10, sm 6, xs 4, xxs 2 columns). */
export const GridLayouts = Type.Partial(
  Type.Object(Object.fromEntries(GRID_BREAKPOINTS.map((bp) => [bp, Type.Array(GridItem, { maxItems: 200 })]))),
  { additionalProperties: false },
);
export type GridLayouts = Partial<Record<(typeof GRID_BREAKPOINTS)[number], GridItem[]>>;

export const Scene = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: Type.Literal('grid'),
  index: Type.Integer(),
  accountId: Type.String(),
  path: Type.String(),
  groupId: Type.String(),
  isGridLocked: Type.Boolean(),
  widgets: Type.Array(Widget),
  gridLayout: GridLayouts,
  appType: Type.String(),
  /** True when the caller may not change this scene (§4 dashboard visibility, or no permission). */
  readOnly: Type.Boolean(),
});
export type Scene = Static<typeof Scene>;

/** `GET /scenes?accountId&groupId`: the group's scenes in order, with their widgets and layouts. */
export const ScenesQuery = Type.Object({ accountId: EntityId, groupId: EntityId }, { additionalProperties: false });
export type ScenesQuery = Static<typeof ScenesQuery>;
export const ScenesAnswer = Type.Array(Scene);

/** `POST /scene {scene}`: the server gives the id, index and path. */
export const AddSceneBody = Type.Object(
  {
    scene: Type.Object(
      { name: Name, accountId: EntityId, groupId: EntityId, type: Type.Optional(Type.Literal('grid')) },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type AddSceneBody = Static<typeof AddSceneBody>;

/** `PUT /scene {accountId, path, props{name or isGridLocked}}`. */
export const UpdateSceneBody = Type.Object(
  {
    accountId: EntityId,
    path: Path,
    props: Type.Object(
      { name: Type.Optional(Name), isGridLocked: Type.Optional(Type.Boolean()) },
      { additionalProperties: false, minProperties: 1 },
    ),
  },
  { additionalProperties: false },
);
export type UpdateSceneBody = Static<typeof UpdateSceneBody>;

/** `DELETE /scene` and `DELETE /widget`: `{accountId, path}`. */
export const DeleteByPathBody = Type.Object({ accountId: EntityId, path: Path }, { additionalProperties: false });
export type DeleteByPathBody = Static<typeof DeleteByPathBody>;
export const DeletedAnswer = Type.Object({ path: Type.String() });

/** `PUT /scenes/order {sceneIds, accountId, groupId}`: every scene of the group, in the new order. */
export const SceneOrderBody = Type.Object(
  { sceneIds: Type.Array(EntityId, { minItems: 1, maxItems: 500 }), accountId: EntityId, groupId: EntityId },
  { additionalProperties: false },
);
export type SceneOrderBody = Static<typeof SceneOrderBody>;
export const SceneOrderAnswer = Type.Object({ sceneIds: Type.Array(Type.String()) });

/** `POST /gridlayout {gridLayout, accountId, path}` (not sent for default-kind apps). */
export const GridLayoutBody = Type.Object(
  { gridLayout: GridLayouts, accountId: EntityId, path: Path },
  { additionalProperties: false },
);
export type GridLayoutBody = Static<typeof GridLayoutBody>;
export const GridLayoutAnswer = Type.Object({ path: Type.String(), gridLayout: GridLayouts });

/**
 * `PUT /widget {widget}` answers the widget. Without an id it adds the widget to the scene named by
 * accountId, groupId and sceneId (the server gives the id and a grid place); with an id it replaces it.
 */
export const PutWidgetBody = Type.Object(
  {
    widget: Type.Object(
      { id: Type.Optional(EntityId), accountId: EntityId, groupId: EntityId, sceneId: EntityId, ...widgetFields },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type PutWidgetBody = Static<typeof PutWidgetBody>;

/** A widget as its editor and storage see it: `PUT /widget`'s widget without the scene's ids. */
export type WidgetFields = Omit<PutWidgetBody['widget'], 'accountId' | 'groupId' | 'sceneId'>;

const SCENE_ERRORS = errorAnswers(400, 401, 403, 404, 409);

/** The scene calls the browser demo answers too, as the server registers them. */
export const SCENE_ROUTES = {
  scenes: apiRoute('GET', '/scenes', {
    tags: ['scenes'],
    summary: 'The scenes of a group in order, with widgets and grid layouts (needs VIEW_DASH)',
    querystring: ScenesQuery,
    response: { 200: ScenesAnswer, ...SCENE_ERRORS },
  }),
};
