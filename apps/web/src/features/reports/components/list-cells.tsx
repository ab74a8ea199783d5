/** The cells every report and schedule row shares: its selection box and its tags. */

export function SelectAllCell({
  noun,
  chosen,
  shown,
  onToggle,
}: {
  noun: 'report' | 'schedule';
  chosen: number;
  shown: number;
  onToggle: () => void;
}) {
  return (
    <th scope="col" className="reports-select">
      <input
        type="checkbox"
        aria-label={`Select every ${noun} shown`}
        checked={shown > 0 && chosen === shown}
        onChange={onToggle}
      />
    </th>
  );
}

export function SelectCell({
  item,
  selected,
  onToggle,
}: {
  item: { id: string; name: string; props: { canChange: boolean } };
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
}) {
  return (
    <td className="reports-select">
      <input
        type="checkbox"
        disabled={!item.props.canChange}
        aria-label={`Select ${item.name}`}
        checked={selected.has(item.id)}
        onChange={() => onToggle(item.id)}
      />
    </td>
  );
}

export function TagsCell({ tags }: { tags: readonly string[] }) {
  return (
    <td>
      <span className="reports-tag-list">
        {tags.map((tag) => (
          <span key={tag} className="reports-tag is-static">
            {tag}
          </span>
        ))}
      </span>
    </td>
  );
}
