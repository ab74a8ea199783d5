import type { ReactNode } from 'react';

/**
 * The head of a list page: the title, a line of counts under it, and the page's tools at the right
 * (they wrap under the title on a narrow screen).
 */
export function PageHeader({ title, summary, children }: { title: string; summary: ReactNode; children?: ReactNode }) {
  return (
    <header className="fl-page-header">
      <div>
        <h1>{title}</h1>
        <p className="fl-muted">{summary}</p>
      </div>
      {children}
    </header>
  );
}
