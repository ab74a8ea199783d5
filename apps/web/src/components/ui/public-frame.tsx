import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useClientConfig } from '../../lib/api/get-client-config';
import { BrandMark } from './brand-mark';

/** Frame of the public pages that are not forms: a slim brand header over centred content. */
export function PublicFrame({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  const { productName } = useClientConfig();
  return (
    <div className="fl-public-page">
      <header className="fl-public-page__header">
        <Link to="/" className="fl-public-page__brand">
          <BrandMark size={28} />
          <span>{productName}</span>
        </Link>
      </header>
      <main className={`fl-public-page__main${wide ? ' is-wide' : ''}`}>{children}</main>
    </div>
  );
}
