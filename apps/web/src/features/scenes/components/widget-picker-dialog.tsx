import type { WidgetType } from '@fieldlink/domain/widgets';
import { Dialog } from '../../../components/ui/dialog';
import { typesByPickerGroup } from '../model/picker-groups';
import { WIDGET_DEFINITIONS } from '../widgets/registry';

const GROUPS = typesByPickerGroup();

/** Every widget type, grouped, to add one to the scene; choosing a type opens its editor. */
export function WidgetPickerDialog({ onPick, onClose }: { onPick: (type: WidgetType) => void; onClose: () => void }) {
  return (
    <Dialog title="Add a widget" description="Choose what the widget shows or controls." size="lg" onClose={onClose}>
      <div className="widget-picker" data-testid="widget-picker">
        {GROUPS.map((group) => {
          const definitions = group.types.map((type) => WIDGET_DEFINITIONS[type]).filter(Boolean);
          if (definitions.length === 0) return null;
          return (
            <section key={group.id} className="widget-picker__group" aria-labelledby={`widget-picker-${group.id}`}>
              <h3 id={`widget-picker-${group.id}`} className="widget-picker__heading">
                {group.label}
              </h3>
              <ul className="widget-picker__list">
                {definitions.map(({ type, label, description, Icon }) => (
                  <li key={type}>
                    <button
                      type="button"
                      className="widget-picker__option"
                      data-testid={`widget-type-${type}`}
                      onClick={() => onPick(type)}
                    >
                      <span className="widget-picker__icon" aria-hidden="true">
                        <Icon />
                      </span>
                      <span className="widget-picker__text">
                        <span className="widget-picker__label">{label}</span>
                        <span className="widget-picker__description">{description}</span>
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          );
        })}
      </div>
    </Dialog>
  );
}
