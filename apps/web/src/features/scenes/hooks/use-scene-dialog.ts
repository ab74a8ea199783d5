import { useCallback, useState } from 'react';
import type { Scene, Widget } from '@fieldlink/api/scenes';
import type { WidgetType } from '@fieldlink/domain/widgets';
import { draftOfWidget, newWidgetDraft } from '../model/widget-form';
import { WIDGET_DEFINITIONS } from '../widgets/registry';
import type { WidgetDefinition, WidgetDraft } from '../widgets/widget-definition';

type SceneDialog =
  | { kind: 'addScene' }
  | { kind: 'renameScene'; scene: Scene }
  | { kind: 'deleteScene'; scene: Scene }
  | { kind: 'pickWidget' }
  | { kind: 'editWidget'; definition: WidgetDefinition; draft: WidgetDraft }
  | { kind: 'deleteWidget'; widget: Widget };

/** Which dialog of the scene page is open, and the draft a widget editor opens with. */
export function useSceneDialog() {
  const [dialog, setDialog] = useState<SceneDialog | null>(null);
  const close = useCallback(() => setDialog(null), []);
  const editWidget = useCallback((widget: Widget) => {
    const definition = WIDGET_DEFINITIONS[widget.type];
    if (definition) setDialog({ kind: 'editWidget', definition, draft: draftOfWidget(widget) });
  }, []);
  const deleteWidget = useCallback((widget: Widget) => setDialog({ kind: 'deleteWidget', widget }), []);
  const newWidget = (type: WidgetType) => {
    const definition = WIDGET_DEFINITIONS[type];
    if (definition) setDialog({ kind: 'editWidget', definition, draft: newWidgetDraft(type, definition) });
  };
  return {
    dialog,
    close,
    addScene: () => setDialog({ kind: 'addScene' }),
    renameScene: (scene: Scene) => setDialog({ kind: 'renameScene', scene }),
    deleteScene: (scene: Scene) => setDialog({ kind: 'deleteScene', scene }),
    pickWidget: () => setDialog({ kind: 'pickWidget' }),
    newWidget,
    editWidget,
    deleteWidget,
  };
}

export type SceneDialogState = ReturnType<typeof useSceneDialog>;
