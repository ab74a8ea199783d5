/** The product mark: drawn inline so it follows the theme (primary fill, accent dot). */
export function BrandMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill="var(--fl-primary)" />
      <path
        d="M10 22.5V9.5h10.5M10 16h7.5"
        fill="none"
        stroke="var(--fl-on-primary)"
        strokeWidth="3"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="22.5" cy="21.5" r="3" fill="var(--fl-accent)" />
    </svg>
  );
}
