import type { CSSProperties } from 'react';

export function Spinner({ size = 18, label }: { size?: number; label?: string }) {
  const style = { '--fl-spinner-size': `${size}px` } as CSSProperties;
  return <span className="fl-spinner" style={style} role={label ? 'status' : undefined} aria-label={label} />;
}
