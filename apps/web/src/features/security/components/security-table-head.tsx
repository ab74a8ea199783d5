/** The head of a table on the security page: its columns, then an unnamed column of row actions. */
export function SecurityTableHead({ columns }: { columns: readonly string[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column) => (
          <th key={column}>{column}</th>
        ))}
        <th>
          <span className="fl-visually-hidden">Actions</span>
        </th>
      </tr>
    </thead>
  );
}
