import { useEffect, useId, useRef, useState } from 'react';
import { COLUMN_SET_LABELS, COLUMN_SETS, DEFAULT_COLUMN_KEYS, DEVICE_COLUMNS } from '@fieldlink/domain/device-columns';
import { Button } from '../../../components/ui/button';
import { SearchIcon } from '../../../components/ui/icons';

export interface ColumnChooserProps {
  chosen: readonly string[];
  onChange: (keys: string[]) => void;
  onClose: () => void;
}

/**
 * The column chooser: every column of §2 by set, with a search box. A newly chosen column joins at
 * the right-hand end; the last column cannot be removed (a table needs one).
 */
export function ColumnChooser({ chosen, onChange, onClose }: ColumnChooserProps) {
  const [search, setSearch] = useState('');
  const panel = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const chosenSet = new Set(chosen);
  const needle = search.trim().toLowerCase();

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && onClose();
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      // The toggle button closes it itself; anything else outside the panel closes it here.
      if (panel.current && !panel.current.contains(target) && !(target as Element).closest?.('[data-column-toggle]')) {
        onClose();
      }
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [onClose]);

  const toggle = (key: string) => {
    if (chosenSet.has(key)) {
      if (chosen.length > 1) onChange(chosen.filter((candidate) => candidate !== key));
    } else onChange([...chosen, key]);
  };

  return (
    <div ref={panel} className="fl-card dt-popover dt-columns" role="dialog" aria-labelledby={titleId}>
      <header className="dt-popover__header">
        <h2 id={titleId}>Columns</h2>
        <span className="fl-muted">
          {chosen.length} of {DEVICE_COLUMNS.length} shown
        </span>
      </header>
      <label className="dt-search">
        <SearchIcon size={15} />
        <input
          autoFocus
          placeholder="Find a column"
          aria-label="Find a column"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      </label>
      <div className="dt-columns__sets">
        {COLUMN_SETS.map((set) => {
          const columns = DEVICE_COLUMNS.filter(
            (column) => column.set === set && (needle === '' || column.label.toLowerCase().includes(needle)),
          );
          if (columns.length === 0) return null;
          return (
            <fieldset key={set} className="dt-columns__set">
              <legend>{COLUMN_SET_LABELS[set]}</legend>
              {columns.map((column) => (
                <label key={column.key} className="dt-check">
                  <input type="checkbox" checked={chosenSet.has(column.key)} onChange={() => toggle(column.key)} />
                  <span>{column.label}</span>
                </label>
              ))}
            </fieldset>
          );
        })}
      </div>
      <footer className="dt-popover__footer">
        <Button size="sm" variant="ghost" onClick={() => onChange([...DEFAULT_COLUMN_KEYS])}>
          Reset to default
        </Button>
        <Button size="sm" variant="primary" onClick={onClose}>
          Done
        </Button>
      </footer>
    </div>
  );
}
