// The shop's in-app link: an <a> with the route's address whose plain left click navigates in the app
// (a click with a modifier key, a middle click or a target opens the address as the browser would).
// React Router's own Link also carries framework-mode features the shop does not use (route prefetching,
// route discovery, view transitions), about 2 KB gzipped; and since the router is one module, any use of
// its Link anywhere puts that code into the first page's chunk. So every link in the app is this one.
import type { AnchorHTMLAttributes } from 'react';
import { useHref, useLinkClickHandler } from 'react-router';

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  /** A path in the app: '/shop/drinks/'. */
  to: string;
  /** Replace the current history entry (by default only when `to` is the page already shown). */
  replace?: boolean;
  /** History state handed to the next page (useLocation().state). */
  state?: unknown;
}

export function Link({ to, replace, state, target, onClick, ...rest }: LinkProps) {
  const href = useHref(to);
  const navigate = useLinkClickHandler<HTMLAnchorElement>(to, { replace, state, target });
  return (
    // eslint-disable-next-line jsx-a11y/anchor-has-content -- the content is the caller's children, inside `rest`; naming them here would cost the first page's script bytes
    <a
      {...rest}
      href={href}
      target={target}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) navigate(event);
      }}
    />
  );
}
