// A link that marks itself aria-current="page" when its path is the page shown (styles key off that).
import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { Link } from './Link';

interface ActiveLinkProps {
  to: string;
  className?: string;
  children: ReactNode;
  onClick?: () => void;
  /** Current only on its own path (the default), or also on the pages below it (`end={false}`). */
  end?: boolean;
}

export function ActiveLink({ to, className, children, onClick, end = true }: ActiveLinkProps) {
  const { pathname } = useLocation();
  const trim = (path: string) => path.replace(/\/?(\?.*)?$/, '');
  const here = trim(pathname);
  const target = trim(to);
  const current = here === target || (!end && here.startsWith(`${target}/`));
  return (
    <Link to={to} className={className} aria-current={current ? 'page' : undefined} {...(onClick ? { onClick } : {})}>
      {children}
    </Link>
  );
}
