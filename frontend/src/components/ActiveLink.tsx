// A link that marks itself aria-current="page" when its path is the page shown (styles key off that).
import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { Link } from './Link';

interface ActiveLinkProps {
  to: string;
  className?: string;
  children: ReactNode;
  onClick?: () => void;
}

export function ActiveLink({ to, className, children, onClick }: ActiveLinkProps) {
  const { pathname } = useLocation();
  const trim = (path: string) => path.replace(/\/?(\?.*)?$/, '');
  const current = trim(pathname) === trim(to);
  return (
    <Link to={to} className={className} aria-current={current ? 'page' : undefined} {...(onClick ? { onClick } : {})}>
      {children}
    </Link>
  );
}
