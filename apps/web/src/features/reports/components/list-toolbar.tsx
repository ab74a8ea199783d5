import { SearchIcon, TagIcon } from '../../../components/ui/icons';
import type { ReportListFilter } from '@fieldlink/domain/reports';

/** The list filter of §5: text search on name or comments, and tags (an item needs one of them). */
export function ListToolbar({
  filter,
  tags,
  onChange,
}: {
  filter: ReportListFilter;
  /** Every tag of the list. */
  tags: readonly string[];
  onChange: (filter: ReportListFilter) => void;
}) {
  const toggle = (tag: string) =>
    onChange({
      ...filter,
      tags: filter.tags.includes(tag) ? filter.tags.filter((item) => item !== tag) : [...filter.tags, tag],
    });
  return (
    <div className="reports-toolbar">
      <label className="reports-search">
        <SearchIcon size={15} />
        <input
          className="fl-input"
          type="search"
          placeholder="Search name or comments"
          aria-label="Search name or comments"
          value={filter.text}
          onChange={(event) => onChange({ ...filter, text: event.target.value })}
        />
      </label>
      {tags.length > 0 && (
        <div className="reports-tags" role="group" aria-label="Filter by tag">
          <TagIcon size={15} />
          {tags.map((tag) => (
            <button
              key={tag}
              type="button"
              className={`reports-tag${filter.tags.includes(tag) ? ' is-active' : ''}`}
              aria-pressed={filter.tags.includes(tag)}
              onClick={() => toggle(tag)}
            >
              {tag}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
